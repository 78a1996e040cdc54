/**
 * The real-looking pages of the corpus, drawn by us: a 1940s-style comic, a colour manga page, a
 * 4-koma, a webtoon strip, shop banners and street signs. Each page is its art (SVG) and its blocks of
 * lettering, with the translation the benchmarks expect and the container the lettering sits in.
 *
 * A block: { lines, at: [cx, cy], size, family, weight?, fill?, vertical?, container: { kind, fill?,
 * stroke?, tail? }, translation, role? } (role: dialogue, caption or sfx; dialogue unless said).
 * A block whose translation is its text (a brand, a price) must keep its pixels.
 */
import { dotPattern, panelSvg } from "./draw.mjs";

const SANS = "Noto Sans";
const JP = "Noto Sans CJK JP";
const SC = "Noto Sans CJK SC";
const KR = "Noto Sans CJK KR";

/** A figure: head, body and arms in flat colours with a dark ink line, as simple comics draw them. */
function figure(x, y, scale, colour) {
	const s = scale;
	return `<g stroke="#1a1a1a" stroke-width="${3 * s}" stroke-linejoin="round">
<path d="M${x - 40 * s},${y + 190 * s} L${x - 34 * s},${y + 70 * s} Q${x},${y + 50 * s} ${x + 34 * s},${y + 70 * s} L${x + 40 * s},${y + 190 * s} Z" fill="${colour}"/>
<path d="M${x - 34 * s},${y + 80 * s} L${x - 70 * s},${y + 150 * s}" fill="none"/>
<path d="M${x + 34 * s},${y + 80 * s} L${x + 66 * s},${y + 40 * s}" fill="none"/>
<circle cx="${x}" cy="${y + 25 * s}" r="${30 * s}" fill="#f2c9a0"/>
<path d="M${x - 30 * s},${y + 15 * s} Q${x},${y - 25 * s} ${x + 30 * s},${y + 15 * s}" fill="#3b2a1a"/>
</g>`;
}

export const PAGES = [
	{
		name: "comic-1940s",
		description: "1940s-style comic: yellowed paper, halftone colour, three panels, uppercase balloons and a caption",
		source: "en",
		target: "ja",
		mode: "manga",
		width: 900,
		height: 1300,
		art: `<rect width="900" height="1300" fill="#efe2bf"/>
<defs>${dotPattern("sky", { pitch: 7, radius: 2.1, fill: "#3f7fc0", opacity: 0.55 })}${dotPattern("red", { pitch: 7, radius: 2.4, fill: "#c8402f", opacity: 0.6 })}${dotPattern("grass", { pitch: 7, radius: 2.6, fill: "#3d8a3d", opacity: 0.6 })}</defs>
<rect x="30" y="30" width="840" height="560" fill="url(#sky)"/>
<path d="M30,470 Q250,380 470,450 T870,420 L870,590 L30,590 Z" fill="url(#grass)" stroke="#1a1a1a" stroke-width="3"/>
<rect x="560" y="250" width="200" height="230" fill="url(#red)" stroke="#1a1a1a" stroke-width="3"/>
<path d="M540,255 L660,170 L780,255 Z" fill="#7a4a2a" stroke="#1a1a1a" stroke-width="3"/>
<circle cx="690" cy="360" r="55" fill="none" stroke="#1a1a1a" stroke-width="6"/>
${figure(250, 300, 1.1, "#2f5fa0")}
${panelSvg({ x: 30, y: 30, width: 840, height: 560 })}
<rect x="30" y="620" width="400" height="650" fill="url(#sky)"/>
<rect x="30" y="1050" width="400" height="220" fill="#8a6a3a"/>
${figure(230, 820, 1.2, "#b03a2e")}
${panelSvg({ x: 30, y: 620, width: 400, height: 650 })}
<rect x="460" y="620" width="410" height="650" fill="url(#red)"/>
<path d="M460,1100 L870,980 L870,1270 L460,1270 Z" fill="#5a5a5a" stroke="#1a1a1a" stroke-width="3"/>
${figure(700, 860, 1.15, "#2f5fa0")}
${panelSvg({ x: 460, y: 620, width: 410, height: 650 })}`,
		blocks: [
			{
				lines: ["MEANWHILE, AT THE", "OLD MILL..."],
				at: [180, 85],
				size: 22,
				family: SANS,
				weight: 700,
				container: { kind: "caption", fill: "#f6dc6a" },
				translation: "その頃、古い水車小屋では…",
				role: "caption",
			},
			{
				lines: ["WHO GOES", "THERE?"],
				at: [470, 150],
				size: 26,
				family: SANS,
				weight: 700,
				container: { kind: "balloon", tail: [330, 290] },
				translation: "誰だ？",
			},
			{
				lines: ["IT'S ONLY ME,", "SARGE!"],
				at: [200, 700],
				size: 24,
				family: SANS,
				weight: 700,
				container: { kind: "balloon", tail: [230, 820] },
				translation: "俺ですよ、軍曹！",
			},
			{
				lines: ["THE MAP IS", "GONE! SOMEBODY", "TOOK IT!"],
				at: [650, 720],
				size: 24,
				family: SANS,
				weight: 700,
				container: { kind: "balloon", tail: [690, 850] },
				translation: "地図がない！誰かが盗んだ！",
			},
			{
				lines: ["THEN WE MUST", "FIND THEM", "BEFORE DAWN."],
				at: [260, 1160],
				size: 24,
				family: SANS,
				weight: 700,
				container: { kind: "balloon", tail: [230, 1000] },
				translation: "夜明け前に見つけ出すぞ。",
			},
		],
	},
	{
		name: "manga-colour",
		description: "colour manga page: sky and interior panels, screentone, five vertical Japanese balloons",
		source: "ja",
		target: "en",
		mode: "manga",
		width: 1000,
		height: 1400,
		art: `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5aa0e6"/><stop offset="1" stop-color="#e8f3ff"/></linearGradient>
<linearGradient id="room" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f3c98b"/><stop offset="1" stop-color="#c0743e"/></linearGradient>
${dotPattern("tone", { pitch: 6, radius: 1.6, fill: "#333", opacity: 0.8 })}</defs>
<rect width="1000" height="1400" fill="#fff"/>
<rect x="24" y="24" width="952" height="640" fill="url(#sky)"/>
<circle cx="820" cy="140" r="70" fill="#ffd84a" stroke="#1a1a1a" stroke-width="3"/>
<path d="M24,520 Q300,440 560,520 T976,500 L976,664 L24,664 Z" fill="#5cb85c" stroke="#1a1a1a" stroke-width="3"/>
${figure(420, 300, 1.3, "#d04a6a")}
${figure(640, 330, 1.2, "#3a6ad0")}
${panelSvg({ x: 24, y: 24, width: 952, height: 640 })}
<rect x="24" y="690" width="952" height="686" fill="url(#room)"/>
<rect x="24" y="690" width="400" height="686" fill="url(#tone)"/>
<rect x="560" y="760" width="300" height="220" fill="#9fd3f0" stroke="#1a1a1a" stroke-width="4"/>
${figure(700, 980, 1.4, "#3a6ad0")}
${panelSvg({ x: 24, y: 690, width: 952, height: 686 })}`,
		blocks: [
			{
				lines: ["ちょっと待って", "どこへ行くの"],
				at: [140, 230],
				size: 30,
				family: JP,
				vertical: true,
				container: { kind: "balloon", tail: [380, 330] },
				translation: "Wait a moment! Where are you going?",
			},
			{
				lines: ["明日また", "会おう"],
				at: [880, 420],
				size: 30,
				family: JP,
				vertical: true,
				container: { kind: "balloon", tail: [690, 360] },
				translation: "See you tomorrow",
			},
			{
				lines: ["本当に", "ありがとう"],
				at: [300, 860],
				size: 32,
				family: JP,
				vertical: true,
				container: { kind: "balloon", tail: [520, 1000] },
				translation: "Thank you so much",
			},
			{
				lines: ["これは", "秘密だよ"],
				at: [880, 1180],
				size: 28,
				family: JP,
				vertical: true,
				container: { kind: "balloon", tail: [760, 1080] },
				translation: "This is a secret",
			},
			{
				lines: ["急がないと", "間に合わない"],
				at: [180, 1210],
				size: 28,
				family: JP,
				vertical: true,
				container: { kind: "balloon" },
				translation: "If we don't hurry, we'll be late",
			},
		],
	},
	{
		name: "yonkoma",
		description: "4-koma strip: four stacked panels, a title, vertical Japanese balloons, screentone",
		source: "ja",
		target: "en",
		mode: "manga",
		width: 640,
		height: 1900,
		art: `<rect width="640" height="1900" fill="#fff"/>
<defs>${dotPattern("tone", { pitch: 5, radius: 1.3, fill: "#222", opacity: 0.85 })}</defs>
${[0, 1, 2, 3]
	.map(
		(k) => `${k === 2 ? `<rect x="40" y="${120 + k * 440}" width="560" height="410" fill="url(#tone)"/>` : ""}
${figure(k % 2 ? 200 : 430, 240 + k * 440, 1, k % 2 ? "#999" : "#666")}
${panelSvg({ x: 40, y: 120 + k * 440, width: 560, height: 410 })}`,
	)
	.join("\n")}`,
		blocks: [
			{
				lines: ["今日の天気"],
				at: [320, 68],
				size: 34,
				family: JP,
				weight: 700,
				container: { kind: "free" },
				translation: "Today's Weather",
				role: "caption",
			},
			{
				lines: ["今日は", "晴れだね"],
				at: [150, 260],
				size: 28,
				family: JP,
				vertical: true,
				container: { kind: "balloon", tail: [400, 280] },
				translation: "It's sunny today",
			},
			{
				lines: ["散歩に", "行こう"],
				at: [480, 710],
				size: 28,
				family: JP,
				vertical: true,
				container: { kind: "balloon", tail: [230, 720] },
				translation: "Let's go for a walk",
			},
			{
				lines: ["あれ？", "雨だ"],
				at: [150, 1140],
				size: 28,
				family: JP,
				vertical: true,
				container: { kind: "balloon", tail: [400, 1160] },
				translation: "Huh? It's raining",
			},
			{
				lines: ["本を読む"],
				at: [500, 1600],
				size: 28,
				family: JP,
				vertical: true,
				container: { kind: "balloon", tail: [260, 1620] },
				translation: "I'll read a book",
			},
		],
	},
	{
		name: "webtoon",
		description: "webtoon strip: a long colour scroll without panel borders, horizontal Korean balloons and narration",
		source: "ko",
		target: "en",
		mode: "manga",
		width: 800,
		height: 4200,
		art: `<defs><linearGradient id="night" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#10183a"/><stop offset="0.35" stop-color="#3a4a8a"/><stop offset="0.6" stop-color="#f2b3a0"/><stop offset="1" stop-color="#fff3e0"/></linearGradient></defs>
<rect width="800" height="4200" fill="url(#night)"/>
<circle cx="620" cy="300" r="90" fill="#fff6c8"/>
${figure(380, 700, 1.6, "#7a3aa0")}
<rect x="0" y="1500" width="800" height="700" fill="#e8d8ff" opacity="0.5"/>
${figure(260, 1650, 1.5, "#2a7a6a")}
${figure(560, 1700, 1.4, "#7a3aa0")}
${figure(400, 2900, 1.7, "#2a7a6a")}
<path d="M0,3900 Q400,3700 800,3900 L800,4200 L0,4200 Z" fill="#6a9a5a"/>`,
		blocks: [
			{
				lines: ["그날 밤,", "모든 것이 바뀌었다."],
				at: [400, 140],
				size: 30,
				family: KR,
				fill: "#fff",
				container: { kind: "caption", fill: "#1c1c2c", stroke: "#1c1c2c" },
				translation: "That night, everything changed.",
				role: "caption",
			},
			{
				lines: ["어디 가는", "거야?"],
				at: [200, 560],
				size: 30,
				family: KR,
				container: { kind: "balloon", tail: [350, 700] },
				translation: "Where are you going?",
			},
			{
				lines: ["잠깐만", "기다려!"],
				at: [590, 1420],
				size: 32,
				family: KR,
				weight: 700,
				container: { kind: "balloon", tail: [560, 1650] },
				translation: "Wait a moment!",
			},
			{
				lines: ["정말", "고마워요"],
				at: [200, 2150],
				size: 30,
				family: KR,
				container: { kind: "balloon", tail: [260, 1900] },
				translation: "Thank you so much",
			},
			{
				lines: ["이건", "비밀이야"],
				at: [600, 2700],
				size: 30,
				family: KR,
				container: { kind: "balloon", tail: [430, 2900] },
				translation: "This is a secret",
			},
			{
				lines: ["내일 또 만나"],
				at: [400, 3550],
				size: 30,
				family: KR,
				container: { kind: "balloon", tail: [400, 3300] },
				translation: "See you tomorrow",
			},
		],
	},
	{
		name: "shop-banners",
		description: "shop front: a red banner, signs, a price tag and a brand that stays as it is",
		source: "zh",
		target: "en",
		mode: "general",
		width: 1200,
		height: 800,
		art: `<defs><linearGradient id="wall" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#d8cbb8"/><stop offset="1" stop-color="#a89378"/></linearGradient>
${dotPattern("brick", { pitch: 18, radius: 3, fill: "#8a6a50", opacity: 0.35, angle: 0 })}</defs>
<rect width="1200" height="800" fill="url(#wall)"/>
<rect width="1200" height="800" fill="url(#brick)"/>
<rect x="120" y="330" width="420" height="420" fill="#3a2a20" stroke="#222" stroke-width="6"/>
<rect x="660" y="330" width="420" height="330" fill="#9ec8e0" stroke="#222" stroke-width="6"/>
<circle cx="870" cy="500" r="60" fill="#f0e0c0" stroke="#6a4a2a" stroke-width="5"/>`,
		blocks: [
			{
				lines: ["新鲜面包 每日烘焙"],
				at: [600, 110],
				size: 64,
				family: SC,
				weight: 700,
				fill: "#ffd83a",
				container: { kind: "sign", fill: "#c8102e", pad: 22 },
				translation: "Fresh bread, baked daily",
				role: "caption",
			},
			{
				lines: ["今日特价"],
				at: [330, 260],
				size: 44,
				family: SC,
				weight: 700,
				fill: "#fff",
				container: { kind: "sign", fill: "#1f6f3f" },
				translation: "Today's special",
				role: "caption",
			},
			{
				lines: ["COFFEE"],
				at: [870, 260],
				size: 46,
				family: SANS,
				weight: 700,
				fill: "#3a2a1a",
				container: { kind: "sign", fill: "#f4ead6" },
				translation: "COFFEE",
				role: "caption",
			},
			{
				lines: ["欢迎光临"],
				at: [330, 450],
				size: 40,
				family: SC,
				fill: "#f4ead6",
				container: { kind: "free" },
				translation: "Welcome",
				role: "caption",
			},
			{
				lines: ["¥39"],
				at: [870, 700],
				size: 40,
				family: SANS,
				weight: 700,
				fill: "#c8102e",
				container: { kind: "sign", fill: "#fff" },
				translation: "¥39",
				role: "caption",
			},
		],
	},
	{
		name: "street-signs",
		description: "street corner: direction signs on a photo-like scene, Korean place names and an exit number",
		source: "ko",
		target: "en",
		mode: "general",
		width: 1200,
		height: 900,
		art: `<defs><linearGradient id="air" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8ab4d8"/><stop offset="1" stop-color="#d8e4ec"/></linearGradient>
<linearGradient id="road" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6a6a6a"/><stop offset="1" stop-color="#3a3a3a"/></linearGradient></defs>
<rect width="1200" height="900" fill="url(#air)"/>
<path d="M0,420 L180,300 L180,620 L0,700 Z" fill="#b8a890"/><path d="M1200,380 L980,260 L980,640 L1200,720 Z" fill="#a89880"/>
<rect y="620" width="1200" height="280" fill="url(#road)"/>
<rect x="590" y="360" width="20" height="460" fill="#7a7a7a"/>
<rect x="200" y="520" width="14" height="300" fill="#7a7a7a"/>`,
		blocks: [
			{
				lines: ["서울역"],
				at: [470, 120],
				size: 56,
				family: KR,
				weight: 700,
				fill: "#fff",
				container: { kind: "sign", fill: "#0a6b3a" },
				translation: "Seoul Station",
				role: "caption",
			},
			{
				lines: ["시청"],
				at: [760, 120],
				size: 56,
				family: KR,
				weight: 700,
				fill: "#fff",
				container: { kind: "sign", fill: "#0a6b3a" },
				translation: "City Hall",
				role: "caption",
			},
			{
				lines: ["경복궁 1.2km"],
				at: [600, 290],
				size: 40,
				family: KR,
				fill: "#fff",
				container: { kind: "sign", fill: "#7a4a2a" },
				translation: "Gyeongbokgung 1.2km",
				role: "caption",
			},
			{
				lines: ["출구"],
				at: [207, 470],
				size: 44,
				family: KR,
				weight: 700,
				fill: "#111",
				container: { kind: "sign", fill: "#f2c200" },
				translation: "Exit",
				role: "caption",
			},
			{
				lines: ["3"],
				at: [300, 470],
				size: 44,
				family: SANS,
				weight: 700,
				fill: "#fff",
				container: { kind: "sign", fill: "#e06a00" },
				translation: "3",
				role: "caption",
			},
		],
	},
];
