/**
 * The reference page at /docs, rendered on the server from the OpenAPI document itself: no script, no
 * CDN, so it works offline and says exactly what /openapi.json says. It reads the parts of OpenAPI that
 * our document uses (local $refs, header parameters, JSON bodies, response headers) and no more.
 */

type Json = Record<string, unknown>;

function escapeHtml(text: unknown): string {
	return String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Inline code spans in descriptions (`like this`) become <code>; everything else is escaped text. */
function prose(text: unknown): string {
	if (text === undefined) return "";
	return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function asObject(value: unknown): Json {
	return value && typeof value === "object" ? (value as Json) : {};
}

/** Follows a local `#/components/...` reference; anything else is returned as it is. */
function resolve(doc: Json, value: unknown): Json {
	const ref = asObject(value).$ref;
	if (typeof ref !== "string" || !ref.startsWith("#/")) return asObject(value);
	return ref
		.slice(2)
		.split("/")
		.reduce<Json>((node, key) => asObject(node[key]), doc);
}

function json(value: unknown): string {
	return `<pre><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre>`;
}

/** The listed values of a field that also admits other spellings of them (`anyOf` a list and a pattern). */
function listed(schema: Json): Json {
	const branches = Array.isArray(schema.anyOf) ? schema.anyOf.map(asObject) : [];
	return branches.find((branch) => Array.isArray(branch.enum)) ?? schema;
}

/** What a field accepts, in one line: type, bounds, default. Long enumerations get their own list. */
function constraints(field: Json): string {
	const choices = listed(field);
	if (choices !== field) {
		const fallback = choices.default === undefined ? "" : `, default <code>${escapeHtml(choices.default)}</code>`;
		return `string, one of the values listed, in any case${fallback}`;
	}
	const schema = field;
	const parts = [schema.const !== undefined ? `always ${JSON.stringify(schema.const)}` : String(schema.type ?? "any")];
	if (schema.minLength !== undefined) parts.push(`min length ${schema.minLength}`);
	if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`);
	if (schema.pattern !== undefined) parts.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
	if (schema.default !== undefined) parts.push(`default <code>${escapeHtml(schema.default)}</code>`);
	return parts.join(", ");
}

function enumeration(schema: Json): string {
	if (!Array.isArray(schema.enum)) return "";
	const names = asObject(schema["x-enumDescriptions"]);
	const items = schema.enum.map((value) => {
		const name = names[String(value)];
		return `<li><code>${escapeHtml(value)}</code>${name ? ` ${escapeHtml(name)}` : ""}</li>`;
	});
	const list = `<ul class="enum">${items.join("")}</ul>`;
	return schema.enum.length > 12 ? `<details><summary>${schema.enum.length} values</summary>${list}</details>` : list;
}

function fieldsTable(doc: Json, schemaRef: unknown): string {
	const schema = resolve(doc, schemaRef);
	const required = new Set(Array.isArray(schema.required) ? schema.required : []);
	const rows = Object.entries(asObject(schema.properties)).map(([name, raw]) => {
		const field = asObject(raw);
		return `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? " <em>required</em>" : ""}</td><td>${constraints(field)}</td><td>${prose(field.description)}${enumeration(listed(field))}</td></tr>`;
	});
	return `<table><tr><th>Field</th><th>Accepts</th><th>Meaning</th></tr>${rows.join("")}</table>`;
}

function headerRows(doc: Json, headers: Json): string {
	return Object.entries(headers)
		.map(([name, raw]) => {
			const header = resolve(doc, raw);
			return `<tr><td><code>${escapeHtml(name)}</code>${header.required ? " <em>required</em>" : ""}</td><td>${constraints(asObject(header.schema))}</td><td>${prose(header.description)} Example: <code>${escapeHtml(header.example)}</code></td></tr>`;
		})
		.join("");
}

const HEADER_TABLE_HEAD = "<tr><th>Header</th><th>Value</th><th>Meaning</th></tr>";

function response(doc: Json, status: string, raw: unknown): string {
	const answer = resolve(doc, raw);
	const body = asObject(asObject(answer.content)["application/json"]);
	const headers = asObject(answer.headers);
	return `<section class="response" id="status-${escapeHtml(status)}">
<h4><span class="status s${escapeHtml(status[0])}">${escapeHtml(status)}</span> ${prose(answer.description)}</h4>
${
	Object.keys(headers).length
		? `<p>Headers: ${Object.keys(headers)
				.map((h) => `<code>${escapeHtml(h)}</code>`)
				.join(", ")}</p>`
		: ""
}
${body.example !== undefined ? json(body.example) : ""}
</section>`;
}

function operation(doc: Json, method: string, path: string, raw: unknown): string {
	const op = asObject(raw);
	const body = asObject(asObject(asObject(op.requestBody).content)["application/json"]);
	const parameters = (Array.isArray(op.parameters) ? op.parameters : []).map((p) => resolve(doc, p));
	const headerParams = Object.fromEntries(parameters.filter((p) => p.in === "header").map((p) => [p.name, p]));
	const examples = Object.values(asObject(body.examples)).map((raw) => {
		const example = asObject(raw);
		return `<p>${prose(example.summary)}</p>${json(example.value)}`;
	});
	const responses = Object.entries(asObject(op.responses)).map(([status, r]) => response(doc, status, r));
	const samples = (Array.isArray(op["x-codeSamples"]) ? op["x-codeSamples"] : []).map((raw) => {
		const sample = asObject(raw);
		return `<h3>Example: ${escapeHtml(sample.label ?? sample.lang)}</h3><pre><code>${escapeHtml(sample.source)}</code></pre>`;
	});
	return `<section class="operation">
<h2><span class="method">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h2>
<p>${prose(op.summary)}. ${prose(op.description)}</p>
${samples.join("\n")}
<h3>Request headers</h3>
<table>${HEADER_TABLE_HEAD}
<tr><td><code>Authorization</code> <em>required</em></td><td><code>Bearer &lt;API key&gt;</code></td><td>See Authentication.</td></tr>
<tr><td><code>Content-Type</code> <em>required</em></td><td><code>application/json</code></td><td></td></tr>
${headerRows(doc, headerParams)}</table>
<h3>Request body</h3>
${fieldsTable(doc, body.schema)}
${examples.join("\n")}
<h3>Responses</h3>
${responses.join("\n")}
</section>`;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1d1d1f}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f4f4f6;padding:.75rem;overflow-x:auto;border-radius:6px}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.method{background:#1d6b3a;color:#fff;padding:0 .4rem;border-radius:4px}.status{padding:0 .4rem;border-radius:4px;color:#fff;background:#a33}
.status.s2{background:#1d6b3a}.enum{columns:4 10rem;padding-left:1rem}nav a{margin-right:1rem}`;

/** @param styleNonce  the Content-Security-Policy nonce that lets the page's own style apply */
export function renderDocsPage(doc: Json, styleNonce?: string): string {
	const info = asObject(doc.info);
	const scheme = Object.values(asObject(asObject(doc.components).securitySchemes)).map((s) => asObject(s))[0] ?? {};
	const operations = Object.entries(asObject(doc.paths)).flatMap(([path, methods]) =>
		Object.entries(asObject(methods)).map(([method, op]) => operation(doc, method, path, op)),
	);
	const headers = asObject(asObject(doc.components).headers);
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(info.title)} reference</title><link rel="icon" href="data:,"><style${styleNonce ? ` nonce="${escapeHtml(styleNonce)}"` : ""}>${STYLE}</style></head>
<body>
<nav><a href="/">Playground</a><a href="/openapi.json">openapi.json</a></nav>
<h1>${escapeHtml(info.title)}</h1>
<p>${prose(info.description)}</p>
<h2>Authentication</h2>
<p>${prose(scheme.description)}</p>
${operations.join("\n")}
<h2>Response headers</h2>
<table>${HEADER_TABLE_HEAD}${headerRows(doc, headers)}</table>
</body></html>`;
}
