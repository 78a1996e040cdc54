/**
 * The stand-in translator of the local reader, honest about what it is: a phrasebook for the texts of
 * the bundled samples (docs/, the e2e fixtures, the corpus pages), and for anything else a marked
 * pseudo-translation, "~Tenaro miku~", in the target language's script and about the length a
 * translation would have. It never pretends to translate.
 */
import { PAGES } from "../../bench/corpus/pages/pages.mjs";

/** Source text -> { target: translation }, for the samples shipped with the repository. */
const SAMPLES = {
	本当にありがとう: { en: "Thank you so much", es: "Muchas gracias", zh: "真的谢谢你", ko: "정말 고마워요" },
	どこへ行くの: { en: "Where are you going?", es: "¿Adónde vas?", zh: "你要去哪里？", ko: "어디 가는 거야?" },
	これは秘密だよ: { en: "This is a secret", es: "Esto es un secreto", zh: "这是秘密", ko: "이건 비밀이야" },
	こんにちは世界: { en: "Hello, world", es: "Hola, mundo", zh: "你好，世界", ko: "안녕, 세상" },
	ありがとう: { en: "Thank you", es: "Gracias", zh: "谢谢", ko: "고마워요" },
	今日は晴れ: { en: "Sunny today", es: "Hoy hace sol", zh: "今天是晴天", ko: "오늘은 맑음" },
	本を読む: { en: "I'll read a book", es: "Leeré un libro", zh: "看书", ko: "책을 읽어요" },
};

/** Syllables per script, for pseudo-translations that look like the target language's writing. */
const SYLLABLES = {
	latin: ["ka", "lo", "mi", "te", "ra", "no", "su", "ve", "di", "an", "or", "el", "pu", "sa", "ni", "to"],
	cyrillic: ["ка", "ло", "ми", "те", "ра", "но", "су", "ве", "ди", "ан", "ор", "ел", "пу", "са", "ни", "то"],
	ja: ["か", "の", "み", "て", "ら", "な", "す", "ほ", "り", "と", "さ", "ね", "ま", "こ", "う", "し"],
	zh: ["安", "乐", "明", "天", "和", "平", "光", "山", "水", "风", "花", "月", "星", "云", "家", "心"],
	ko: ["가", "로", "미", "테", "라", "노", "수", "베", "디", "안", "오", "엘", "푸", "사", "니", "토"],
	ar: ["كا", "لو", "مي", "تي", "را", "نو", "سو", "في", "دي", "ان"],
	hi: ["का", "लो", "मी", "ते", "रा", "नो", "सु", "वे", "दी", "अन"],
	th: ["กา", "โล", "มี", "เต", "รา", "โน", "สุ", "เว", "ดี", "อัน"],
};
const SCRIPT_OF = {
	ru: "cyrillic",
	uk: "cyrillic",
	bg: "cyrillic",
	ja: "ja",
	zh: "zh",
	ko: "ko",
	ar: "ar",
	fa: "ar",
	hi: "hi",
	th: "th",
};
/** Scripts written without spaces between words. */
const UNSPACED = new Set(["ja", "zh", "th"]);

let phrasebook;

/** The translation of `text` into `target`: the phrasebook's, or a marked pseudo-translation. */
export function standIn(text, target) {
	return phrase(text, target) ?? pseudo(text, target);
}

/** The phrasebook's translation, also for a reading with a character or two wrong. */
export function phrase(text, target) {
	phrasebook ??= buildPhrasebook();
	const key = normalise(text);
	if (key === "") return undefined;
	let best;
	for (const [source, translations] of phrasebook) {
		if (!translations[target]) continue;
		const distance = editDistance(key, source);
		if (distance <= Math.floor(source.length / 4) && (!best || distance < best.distance))
			best = { distance, translation: translations[target] };
	}
	return best?.translation;
}

/**
 * "~Kalomi teras~": syllables of the target's script chosen by the source's characters (the same text
 * always gives the same words), about as long as a translation would be, between tildes.
 */
export function pseudo(text, target) {
	const script = SCRIPT_OF[target] ?? "latin";
	const syllables = SYLLABLES[script];
	const letters = [...text.replace(/\s+/g, "")];
	const wide = letters.filter((c) => c.codePointAt(0) > 0x2e80).length;
	// A CJK character carries what two or three Latin letters do; words of two or three syllables.
	const units = UNSPACED.has(script)
		? Math.max(1, Math.ceil(letters.length * 0.8))
		: Math.max(2, Math.round((wide * 2.4 + (letters.length - wide)) / 2));
	const words = [];
	let word = "";
	for (let k = 0; k < units; k++) {
		const code = letters[k % letters.length].codePointAt(0) + k * 7;
		word += syllables[code % syllables.length];
		if (!UNSPACED.has(script) && (k % 3 === 2 || k === units - 1)) {
			words.push(word);
			word = "";
		}
	}
	if (word) words.push(word);
	const joined = words.join(UNSPACED.has(script) ? "" : " ");
	const body = script === "latin" || script === "cyrillic" ? joined[0].toUpperCase() + joined.slice(1) : joined;
	return script === "ja" || script === "zh" ? `〜${body}〜` : `~${body}~`;
}

function buildPhrasebook() {
	const book = new Map(Object.entries(SAMPLES).map(([source, t]) => [normalise(source), t]));
	for (const page of PAGES)
		for (const block of page.blocks) {
			const key = normalise(block.lines.join(""));
			book.set(key, { ...book.get(key), [page.target]: block.translation });
		}
	return book;
}

/** Letters and digits only, compatibility forms folded, lower case: what OCR reliably gives back. */
export function normalise(text) {
	return [...text.normalize("NFKC").toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c)).join("");
}

/** Levenshtein distance between two strings, by code point. */
export function editDistance(a, b) {
	const x = [...a];
	const y = [...b];
	let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
	for (let i = 1; i <= x.length; i++) {
		const current = [i];
		for (let j = 1; j <= y.length; j++)
			current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
		previous = current;
	}
	return previous[y.length];
}
