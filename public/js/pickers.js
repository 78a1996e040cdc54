/**
 * The option pickers, filled from /openapi.json so that the playground offers exactly what the API
 * accepts (codes, names, defaults) without a second hand-kept list.
 */

export async function loadRequestSchema() {
	const response = await fetch("/openapi.json");
	if (!response.ok) throw new Error(`Could not load /openapi.json (${response.status})`);
	const doc = await response.json();
	return doc.components.schemas.TranslateRequest.properties;
}

/**
 * A field's listed values, with their names and default. The document gives enumerated fields as
 * `anyOf` the list and a pattern (the service accepts any case): the list is the branch with `enum`.
 */
function listed(fieldSchema) {
	return fieldSchema.anyOf?.find((branch) => Array.isArray(branch.enum)) ?? fieldSchema;
}

/** Fills a plain select (mode, translator) with an enum, selecting its default. */
export function fillSelect(select, fieldSchema) {
	const { enum: values, default: fallback } = listed(fieldSchema);
	select.replaceChildren(...values.map((value) => new Option(value, value, false, value === fallback)));
}

function label(code, names) {
	return names[code] ? `${names[code]} (${code})` : code;
}

/**
 * A language list with a search box: typing keeps the languages whose code starts with, or whose name
 * contains, the text, and picks the best match. The choice is kept when nothing matches (the list then
 * shows only it, and says so) and comes back, selected in the whole list, when the search is cleared.
 */
export function makeLanguagePicker(container, fieldSchema, initial) {
	const select = container.querySelector("select");
	const search = container.querySelector(".language-search");
	const note = container.querySelector(".search-note");
	const choices = listed(fieldSchema);
	const names = choices["x-enumDescriptions"] ?? {};
	const all = choices.enum.map((code) => ({
		code,
		text: label(code, names),
		name: (names[code] ?? "").toLowerCase(),
	}));
	let chosen = initial;

	const show = (query) => {
		const q = query.trim().toLowerCase();
		const matches = q ? all.filter((l) => l.code.startsWith(q) || l.name.includes(q)).sort(byRelevance(q)) : all;
		const kept = all.find((l) => l.code === chosen);
		const listed = matches.length || !kept ? matches : [kept];
		select.replaceChildren(...listed.map((l) => new Option(l.text, l.code)));
		// Typed search: take the best match, so "japa" then Translate just works.
		if (q && matches.length) chosen = matches[0].code;
		select.value = chosen;
		note.textContent = matches.length
			? ""
			: `No language matches “${query.trim()}”; ${kept?.text ?? chosen} stays chosen.`;
	};

	show("");
	select.addEventListener("change", () => {
		chosen = select.value;
	});
	search.addEventListener("input", () => show(search.value));
	// Enter in a search box would submit the form, a paid call; it picks the best match instead.
	search.addEventListener("keydown", (event) => {
		if (event.key !== "Enter") return;
		event.preventDefault();
		select.focus();
	});
	return select;
}

/** Exact code first, then names that start with the text, then the rest in list order. */
function byRelevance(q) {
	const rank = (l) => (l.code === q ? 0 : l.name.startsWith(q) ? 1 : 2);
	return (a, b) => rank(a) - rank(b);
}
