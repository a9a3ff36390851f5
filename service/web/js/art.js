// The cards' art: one picture for each character of every edition, drawn here as inline SVG in
// one style (a figure in an arched window, its colour its own), with the card's number and its
// name in the page's language laid over it as text. Nothing is fetched: no image, no font.
//
//   cardFace(card)   the whole card: picture, number, name (the hand, the rules pages)
//   smallCard(card)  a small card for piles and lines of text: picture and number
//   cardBack()       a card nobody may see, small
// `card` is an edition's card as GET /editions answers it: {card, rank, name} (its id, number
// and name in the page's language).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element: s("path", {d, fill}), children after. */
function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) if (child) element.append(child);
  return element;
}

const INK = "#2b1d21";
const SKIN = "#f4cfa8";
const GOLD = "#e2ad2a";
const GOLD_DARK = "#9a6b00";
const line = (extra = {}) => ({ stroke: INK, "stroke-width": 1.4, "stroke-linejoin": "round", "stroke-linecap": "round", ...extra });

// The figure's parts, drawn in a 100 × 140 card whose picture window is x 6–94, y 6–110; the
// head is centred on (50, 56), the right hand (the prop's) near (74, 96). Each part takes the
// character's colours.
const PARTS = {
  // Behind the head
  longHair: (c) => s("path", { d: "M35 56 C33 36 67 36 65 56 L68 86 C61 88 57 82 57 74 L43 74 C43 82 39 88 32 86 Z", fill: c.hair, ...line() }),
  veil: (c) => s("path", { d: "M33 50 C33 30 67 30 67 50 L72 98 L28 98 Z", fill: c.trim, ...line() }),
  hoodBack: (c) => s("path", { d: "M31 62 C29 34 71 34 69 62 C69 76 60 82 50 82 C40 82 31 76 31 62 Z", fill: c.hood, ...line() }),
  cape: (c) => s("path", { d: "M22 110 C20 90 30 74 50 72 C70 74 80 90 78 110 Z", fill: c.trim, ...line() }),
  tassels: (c) => s("g", line({ stroke: c.hat, "stroke-width": 1.6, fill: "none" }),
    s("path", { d: "M32 44 C28 56 30 66 28 78" }), s("path", { d: "M68 44 C72 56 70 66 72 78" }),
    s("circle", { cx: 28, cy: 80, r: 2, fill: c.hat }), s("circle", { cx: 72, cy: 80, r: 2, fill: c.hat })),
  wigCurls: (c) => s("g", { fill: c.hair, ...line() },
    [[35, 52], [34, 61], [36, 69], [65, 52], [66, 61], [64, 69]].map(([cx, cy]) => s("circle", { cx, cy, r: 5 }))),

  // The body
  robe: (c) => s("path", { d: "M16 110 C17 88 30 76 50 76 C70 76 83 88 84 110 Z", fill: c.robe, ...line() }),
  collar: (c) => s("path", { d: "M36 79 Q50 92 64 79 Q57 76 50 76 Q43 76 36 79 Z", fill: c.trim, ...line() }),
  ermine: () => s("g", {},
    s("path", { d: "M26 88 C32 78 42 76 50 80 C58 76 68 78 74 88 C66 92 58 90 50 94 C42 90 34 92 26 88 Z", fill: "#fbfbf6", ...line() }),
    [[36, 85], [44, 88], [56, 88], [64, 85], [50, 86]].map(([cx, cy]) => s("path", { d: `M${cx} ${cy - 1.5} l1.2 3 l-2.4 0 Z`, fill: INK }))),
  tabard: (c) => s("g", {},
    s("path", { d: "M38 80 L62 80 L60 110 L40 110 Z", fill: c.trim, ...line() }),
    heart(50, 94, 5, c.robe)),
  apron: () => s("path", { d: "M38 84 L62 84 L64 110 L36 110 Z", fill: "#ffffff", ...line() }),
  sash: (c) => s("path", { d: "M30 86 L68 106 L64 110 L27 92 Z", fill: c.trim, ...line() }),
  pectoral: () => s("g", {}, s("path", { d: "M50 78 L50 90", ...line({ stroke: GOLD_DARK }) }), cross(50, 94, 5, GOLD)),
  diamonds: (c) => s("g", { fill: c.trim, ...line() },
    [30, 42, 54, 66].map((x) => s("path", { d: `M${x + 2} 86 l4 -6 l4 6 l-4 6 Z` }))),
  neck: () => s("rect", { x: 45, y: 64, width: 10, height: 14, fill: SKIN, ...line() }),

  // The head
  head: () => s("circle", { cx: 50, cy: 56, r: 14, fill: SKIN, ...line() }),
  face: () => s("g", {},
    s("circle", { cx: 45, cy: 56, r: 1.6, fill: INK }), s("circle", { cx: 55, cy: 56, r: 1.6, fill: INK }),
    s("circle", { cx: 41.5, cy: 60.5, r: 2.3, fill: "#ee9d92", "fill-opacity": 0.6 }),
    s("circle", { cx: 58.5, cy: 60.5, r: 2.3, fill: "#ee9d92", "fill-opacity": 0.6 }),
    s("path", { d: "M46.5 62.5 Q50 65.5 53.5 62.5", fill: "none", ...line() })),
  frown: () => s("path", { d: "M46.5 64 Q50 61.5 53.5 64", fill: "none", ...line() }),
  grin: () => s("path", { d: "M45 61.5 Q50 67.5 55 61.5 Z", fill: "#ffffff", ...line() }),
  shortHair: (c) => s("path", { d: "M36 57 C34 38 66 38 64 57 C61 49 56 46 50 47 C44 46 39 49 36 57 Z", fill: c.hair, ...line() }),
  fringe: (c) => s("path", { d: "M36.5 54 C36 40 64 40 63.5 54 C58 47 53 50 50 46 C47 50 42 47 36.5 54 Z", fill: c.hair, ...line() }),
  bun: (c) => s("g", {}, s("circle", { cx: 50, cy: 38, r: 7, fill: c.hair, ...line() }),
    s("path", { d: "M36.5 54 C36 40 64 40 63.5 54 C57 46 43 46 36.5 54 Z", fill: c.hair, ...line() })),
  greyHair: () => s("path", { d: "M36 58 C34 40 66 40 64 58 C60 48 40 48 36 58 Z", fill: "#d9d6d2", ...line() }),
  tonsure: (c) => s("path", { d: "M36 58 C35 50 38 46 41 46 C39 50 39 54 40 58 Z M64 58 C65 50 62 46 59 46 C61 50 61 54 60 58 Z", fill: c.hair, ...line() }),
  beard: (c) => s("path", { d: "M37 57 C38 78 62 78 63 57 C60 64 56 66 50 66 C44 66 40 64 37 57 Z", fill: c.hair, ...line() }),
  moustache: (c) => s("path", { d: "M43 62 C46 58.5 49 59.5 50 60.5 C51 59.5 54 58.5 57 62 C54 61 51.5 61.5 50 62.5 C48.5 61.5 46 61 43 62 Z", fill: c.hair, ...line({ "stroke-width": 0.8 }) }),
  hoodFront: (c) => s("path", { d: "M35 54 C36 38 64 38 65 54 C59 45 41 45 35 54 Z", fill: c.hood, ...line() }),
  mask: () => s("g", {},
    s("path", { d: "M36 52 Q50 48 64 52 L63 59 Q50 56 37 59 Z", fill: INK, ...line() }),
    s("circle", { cx: 45, cy: 55, r: 1.7, fill: "#ffffff" }), s("circle", { cx: 55, cy: 55, r: 1.7, fill: "#ffffff" })),
  scarf: (c) => s("path", { d: "M37 60 Q50 57 63 60 L62 68 Q50 72 38 68 Z", fill: c.hood, ...line() }),
  spectacles: () => s("g", { fill: "#ffffff", "fill-opacity": 0.35, ...line({ "stroke-width": 1.1 }) },
    s("circle", { cx: 45, cy: 56, r: 3.6 }), s("circle", { cx: 55, cy: 56, r: 3.6 }), s("path", { d: "M48.6 56 L51.4 56", fill: "none" })),
  monocle: () => s("g", {}, s("circle", { cx: 55, cy: 56, r: 4, fill: "#ffffff", "fill-opacity": 0.35, ...line({ stroke: GOLD_DARK }) }),
    s("path", { d: "M59 58 Q62 66 58 74", fill: "none", ...line({ stroke: GOLD_DARK, "stroke-width": 0.8 }) })),

  // On the head
  crown: () => s("g", {},
    s("path", { d: "M35 46 L36 27 L43 36 L50 22 L57 36 L64 27 L65 46 Z", fill: GOLD, ...line({ stroke: GOLD_DARK }) }),
    s("rect", { x: 35, y: 42, width: 30, height: 5, fill: GOLD, ...line({ stroke: GOLD_DARK }) }),
    s("circle", { cx: 50, cy: 36, r: 2.4, fill: "#c8283c" }), s("circle", { cx: 42, cy: 44.5, r: 1.5, fill: "#2f6bd0" }),
    s("circle", { cx: 58, cy: 44.5, r: 1.5, fill: "#2f6bd0" })),
  coronet: () => s("g", {},
    s("path", { d: "M39 45 L39 35 L44 40 L50 33 L56 40 L61 35 L61 45 Z", fill: GOLD, ...line({ stroke: GOLD_DARK }) }),
    s("circle", { cx: 50, cy: 40.5, r: 1.6, fill: "#2f9a6b" })),
  tiara: () => s("g", {},
    s("path", { d: "M39 45 Q50 27 61 45 Q50 40 39 45 Z", fill: GOLD, ...line({ stroke: GOLD_DARK }) }),
    s("circle", { cx: 50, cy: 38, r: 2, fill: "#d9447a" })),
  flower: () => s("g", {},
    [[0, -3], [3, 0], [0, 3], [-3, 0]].map(([dx, dy]) => s("circle", { cx: 62 + dx, cy: 44 + dy, r: 2.4, fill: "#f07fa8", ...line({ "stroke-width": 0.8 }) })),
    s("circle", { cx: 62, cy: 44, r: 1.5, fill: "#ffd34d" })),
  helmet: () => s("g", {},
    s("path", { d: "M34 57 C33 35 67 35 66 57 L62 57 C61 47 39 47 38 57 Z", fill: "#aeb8c2", ...line() }),
    s("path", { d: "M50 31 C53 26 60 25 62 28 C57 29 54 31 52 35 Z", fill: "#c8283c", ...line() }),
    s("rect", { x: 48.5, y: 46, width: 3, height: 14, rx: 1, fill: "#aeb8c2", ...line() })),
  mitre: () => s("g", {},
    s("path", { d: "M39 46 L39 30 Q44 21 50 15 Q56 21 61 30 L61 46 Z", fill: "#fbfbf6", ...line() }),
    s("path", { d: "M39 41 L61 41", ...line({ stroke: GOLD, "stroke-width": 3 }) }),
    cross(50, 30, 4, GOLD)),
  galero: (c) => s("g", {},
    s("path", { d: "M39 44 Q40 31 50 31 Q60 31 61 44 Z", fill: c.hat, ...line() }),
    s("ellipse", { cx: 50, cy: 44, rx: 22, ry: 4, fill: c.hat, ...line() })),
  jesterCap: (c) => s("g", {},
    s("path", { d: "M36 48 C30 40 24 34 16 36 C24 40 30 46 38 52 Z", fill: c.hat, ...line() }),
    s("path", { d: "M64 48 C70 40 76 34 84 36 C76 40 70 46 62 52 Z", fill: c.hat, ...line() }),
    s("path", { d: "M40 46 C42 34 46 24 50 18 C54 24 58 34 60 46 Z", fill: c.trim, ...line() }),
    s("path", { d: "M35 52 C36 42 64 42 65 52 C58 46 42 46 35 52 Z", fill: c.trim, ...line() }),
    [[16, 36], [50, 18], [84, 36]].map(([cx, cy]) => s("circle", { cx, cy, r: 3, fill: GOLD, ...line({ stroke: GOLD_DARK }) }))),
  featherHat: (c) => s("g", {},
    s("path", { d: "M58 37 C62 26 70 18 80 16 C76 24 68 32 61 40 Z", fill: c.trim, ...line() }),
    s("path", { d: "M38 44 Q40 32 50 32 Q60 32 62 44 Z", fill: c.hat, ...line() }),
    s("ellipse", { cx: 50, cy: 44, rx: 20, ry: 4.5, fill: c.hat, ...line() })),
  kepi: (c) => s("g", {},
    s("path", { d: "M37 47 L39 32 Q50 28 61 32 L63 47 Z", fill: c.hat, ...line() }),
    s("path", { d: "M35 47 Q50 52 65 47 L65 45 Q50 49 35 45 Z", fill: INK }),
    star(50, 39, 4.2, GOLD)),
  bonnet: () => s("g", {},
    s("path", { d: "M34 56 C32 36 68 36 66 56 C62 46 38 46 34 56 Z", fill: "#ffffff", ...line() }),
    [38, 44, 50, 56, 62].map((cx) => s("circle", { cx, cy: 45.5 + Math.abs(cx - 50) / 3, r: 2, fill: "#ffffff", ...line({ "stroke-width": 0.8 }) }))),
  flatCap: (c) => s("g", {},
    s("ellipse", { cx: 50, cy: 43, rx: 18, ry: 5.5, fill: c.hat, ...line() }),
    s("path", { d: "M41 42 Q50 33 59 42 Z", fill: c.hat, ...line() })),
  furHat: (c) => s("g", {},
    s("path", { d: "M35 48 C34 34 66 34 65 48 Z", fill: c.hat, ...line() }),
    s("rect", { x: 34, y: 44, width: 32, height: 6, rx: 3, fill: "#8a6a4a", ...line() })),
  tricorn: (c) => s("g", {},
    s("path", { d: "M30 46 Q50 26 70 46 Q50 38 30 46 Z", fill: c.hat, ...line() }),
    s("path", { d: "M33 45 Q50 36 67 45", fill: "none", ...line({ stroke: GOLD, "stroke-width": 1.6 }) })),
  smallCrown: () => s("g", {},
    s("path", { d: "M41 42 L41 34 L45.5 38 L50 32 L54.5 38 L59 34 L59 42 Z", fill: GOLD, ...line({ stroke: GOLD_DARK }) })),

  // In the hands
  spear: () => s("g", {},
    s("path", { d: "M78 110 L78 26", ...line({ stroke: "#7a5230", "stroke-width": 3 }) }),
    s("path", { d: "M78 12 L73 27 L83 27 Z", fill: "#d5dde4", ...line() }),
    hand(78, 90)),
  book: (c) => s("g", {},
    s("rect", { x: 39, y: 86, width: 22, height: 16, rx: 1.5, fill: c.trim, ...line() }),
    s("path", { d: "M50 86 L50 102", ...line() }), cross(45, 94, 3, GOLD), hand(38, 96), hand(62, 96)),
  sword: () => s("g", {},
    s("path", { d: "M77 96 L77 30 L79.5 25 L82 30 L82 96 Z", fill: "#d5dde4", ...line() }),
    s("rect", { x: 71, y: 94, width: 17, height: 3.5, rx: 1.5, fill: GOLD, ...line({ stroke: GOLD_DARK }) }),
    s("rect", { x: 77.5, y: 97.5, width: 4, height: 9, fill: "#7a5230", ...line() }),
    hand(79.5, 102)),
  shield: (c) => s("g", {},
    s("path", { d: "M64 80 L86 80 L86 92 C86 102 78 108 75 109 C72 108 64 102 64 92 Z", fill: c.trim, ...line() }),
    heart(75, 93, 5, "#ffffff")),
  sceptre: () => s("g", {},
    s("path", { d: "M78 110 L78 62", ...line({ stroke: GOLD_DARK, "stroke-width": 3 }) }),
    s("circle", { cx: 78, cy: 58, r: 5, fill: GOLD, ...line({ stroke: GOLD_DARK }) }), cross(78, 49, 3, GOLD),
    hand(78, 92)),
  fan: (c) => s("g", {},
    s("path", { d: "M70 96 L60 78 A20 20 0 0 1 84 74 Z", fill: c.trim, ...line() }),
    [[63, 77], [68, 74.5], [74, 73.5], [79, 74]].map(([x, y]) => s("path", { d: `M70 96 L${x} ${y}`, ...line({ "stroke-width": 0.8 }) })),
    hand(70, 96)),
  letter: () => s("g", {},
    s("rect", { x: 38, y: 86, width: 24, height: 16, rx: 1.5, fill: "#fffaf0", ...line() }),
    s("path", { d: "M38 86 L50 96 L62 86", fill: "none", ...line() }), heart(50, 95, 3.4, "#c8283c"),
    hand(37, 97), hand(63, 97)),
  spyglass: () => s("g", {},
    s("path", { d: "M60 92 L84 76 L87 80 L63 96 Z", fill: "#7a5230", ...line() }),
    s("path", { d: "M80 78.5 L86 74.5 L89.5 79.5 L83.5 83.5 Z", fill: GOLD, ...line({ stroke: GOLD_DARK }) }),
    hand(64, 95)),
  scroll: () => s("g", {},
    s("rect", { x: 38, y: 86, width: 24, height: 14, fill: "#fff3d6", ...line() }),
    s("rect", { x: 35, y: 84, width: 5, height: 18, rx: 2.5, fill: "#e8cf9a", ...line() }),
    s("rect", { x: 60, y: 84, width: 5, height: 18, rx: 2.5, fill: "#e8cf9a", ...line() }),
    [89, 93, 97].map((y) => s("path", { d: `M43 ${y} L57 ${y}`, ...line({ "stroke-width": 0.8 }) }))),
  dagger: () => s("g", {},
    s("path", { d: "M76 92 L76 70 L78.5 64 L81 70 L81 92 Z", fill: "#d5dde4", ...line() }),
    s("rect", { x: 72, y: 91, width: 13, height: 3, rx: 1.5, fill: INK }),
    hand(78.5, 98)),
  crozier: () => s("g", {},
    s("path", { d: "M78 110 L78 40 C78 30 90 30 90 38 C90 44 84 44 84 40", fill: "none", ...line({ stroke: GOLD_DARK, "stroke-width": 3 }) }),
    hand(78, 90)),
  cane: () => s("g", {},
    s("path", { d: "M78 110 L78 76 C78 70 86 70 86 76", fill: "none", ...line({ stroke: "#5b3a22", "stroke-width": 3 }) }),
    hand(78, 82)),
  lantern: () => s("g", {},
    s("path", { d: "M78 70 L78 78", ...line() }),
    s("rect", { x: 72, y: 78, width: 12, height: 16, rx: 2, fill: "#ffd96b", ...line() }),
    s("path", { d: "M72 83 L84 83 M72 89 L84 89", ...line({ "stroke-width": 0.8 }) }),
    s("path", { d: "M71 78 L85 78 L82 74 L74 74 Z", fill: INK }), hand(78, 70)),
  coins: () => s("g", {},
    [104, 100, 96, 92].map((y) => s("ellipse", { cx: 74, cy: y, rx: 8, ry: 3, fill: GOLD, ...line({ stroke: GOLD_DARK }) })),
    s("circle", { cx: 62, cy: 90, r: 5, fill: GOLD, ...line({ stroke: GOLD_DARK }) }), hand(62, 97)),
  lorgnette: () => s("g", {},
    s("path", { d: "M62 62 L68 84", ...line({ stroke: GOLD_DARK, "stroke-width": 2 }) }),
    s("circle", { cx: 55, cy: 56, r: 4, fill: "#ffffff", "fill-opacity": 0.35, ...line({ stroke: GOLD_DARK }) }),
    s("circle", { cx: 45, cy: 56, r: 4, fill: "#ffffff", "fill-opacity": 0.35, ...line({ stroke: GOLD_DARK }) }),
    s("path", { d: "M49 56 L51 56 M59 57 L62 62", ...line({ stroke: GOLD_DARK }) }), hand(68, 86)),
  swap: () => s("g", {},
    s("rect", { x: 62, y: 76, width: 11, height: 15, rx: 1.5, fill: "#fffaf0", ...line(), transform: "rotate(-12 67 83)" }),
    s("rect", { x: 73, y: 78, width: 11, height: 15, rx: 1.5, fill: "#c8283c", ...line(), transform: "rotate(12 78 85)" }),
    s("path", { d: "M64 72 Q73 64 82 72 M80 68 L82 72 L78 73", fill: "none", ...line() }), hand(72, 96)),
  pointing: (c) => s("g", {},
    s("path", { d: "M60 90 Q72 86 78 74", fill: "none", ...line({ "stroke-width": 9.5 }) }),
    s("path", { d: "M60 90 Q72 86 78 74", fill: "none", ...line({ stroke: c.robe, "stroke-width": 7 }) }),
    s("path", { d: "M81 68 L89 57", ...line({ "stroke-width": 4.6 }) }),
    s("path", { d: "M81 68 L89 57", ...line({ stroke: SKIN, "stroke-width": 2.4 }) }),
    s("circle", { cx: 79.5, cy: 70.5, r: 4.4, fill: SKIN, ...line() })),
  marotte: (c) => s("g", {},
    s("path", { d: "M78 110 L78 78", ...line({ stroke: "#7a5230", "stroke-width": 2.5 }) }),
    s("circle", { cx: 78, cy: 72, r: 6, fill: SKIN, ...line() }),
    s("path", { d: "M72 70 L68 60 L76 67 L78 58 L80 67 L88 60 L84 70 Z", fill: c.hat, ...line() }),
    hand(78, 94)),
};

function hand(cx, cy) {
  return s("circle", { cx, cy, r: 3.6, fill: SKIN, ...line() });
}

function heart(cx, cy, size, fill) {
  const r = size / 2;
  return s("path", {
    d: `M${cx} ${cy + size} C${cx - size * 1.6} ${cy + r * 0.2} ${cx - r * 1.2} ${cy - r * 1.6} ${cx} ${cy - r * 0.4}`
      + ` C${cx + r * 1.2} ${cy - r * 1.6} ${cx + size * 1.6} ${cy + r * 0.2} ${cx} ${cy + size} Z`,
    fill, ...line({ "stroke-width": 0.9 }),
  });
}

function cross(cx, cy, size, fill) {
  const a = size / 3;
  return s("path", {
    d: `M${cx - a / 2} ${cy - size} h${a} v${size - a} h${size - a / 2} v${a} h${-(size - a / 2)} v${size} h${-a}`
      + ` v${-size} h${-(size - a / 2)} v${-a} h${size - a / 2} Z`,
    fill, ...line({ "stroke-width": 0.6 }),
  });
}

function star(cx, cy, r, fill) {
  const points = Array.from({ length: 10 }, (_, i) => {
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    const radius = i % 2 ? r * 0.45 : r;
    return `${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + radius * Math.sin(angle)).toFixed(2)}`;
  });
  return s("polygon", { points: points.join(" "), fill, ...line({ "stroke-width": 0.6, stroke: GOLD_DARK }) });
}

// Every character of every edition: the colours of its card (frame, window, arch) and of its
// figure, and the parts it is drawn from, back to front.
const FACE = ["robe", "neck", "head", "face"];
export const CHARACTERS = {
  spy: { frame: "#2e4a3f", sky: "#d6e4da", arch: "#9fbcaa", robe: "#3c5c4e", hood: "#2f4a3e", hair: "#3a2a20",
    parts: ["hoodBack", ...FACE, "hoodFront", "mask", "spyglass"] },
  jester: { frame: "#8a2a7a", sky: "#f5dcef", arch: "#e0a6cf", robe: "#7b3bb0", trim: "#f2c230", hat: "#d2413a", hair: "#7a4a2a",
    parts: [...FACE, "grin", "diamonds", "jesterCap", "marotte"] },
  assassin: { frame: "#1f1f2b", sky: "#c9c6d6", arch: "#8c88a3", robe: "#26232f", hood: "#1d1b24", hair: "#1d1b24",
    parts: ["hoodBack", ...FACE, "frown", "scarf", "hoodFront", "dagger"] },
  guard: { frame: "#8c2b1f", sky: "#f3ddc9", arch: "#d9a98a", robe: "#b2362a", trim: "#f0e3c8", hair: "#6b4424",
    parts: [...FACE, "tabard", "helmet", "spear"] },
  priest: { frame: "#5e4028", sky: "#efe4cf", arch: "#cdb58e", robe: "#7a5535", trim: "#4a6fa5", hair: "#8a6a4a",
    parts: ["robe", "collar", "neck", "head", "face", "tonsure", "book"] },
  cardinal: { frame: "#9b1b2a", sky: "#f6d9d9", arch: "#e39a9a", robe: "#b4172b", trim: "#d8283c", hat: "#a51226", hair: "#bdbdbd",
    parts: ["tassels", "cape", "robe", "neck", "head", "face", "pectoral", "galero", "swap"] },
  baron: { frame: "#4f5a23", sky: "#e4e8cf", arch: "#b9c38e", robe: "#5f6e2a", trim: "#c9a34a", hat: "#6a4a2e", hair: "#5a3a22",
    parts: [...FACE, "sash", "moustache", "furHat", "sword"] },
  baroness: { frame: "#5b3a8c", sky: "#e6def4", arch: "#b8a6dc", robe: "#6b47a3", trim: "#ef8fb5", hat: "#4a2f78", hair: "#b0642a",
    parts: ["longHair", ...FACE, "collar", "featherHat", "lorgnette"] },
  handmaid: { frame: "#2f6a8c", sky: "#d8eaf4", arch: "#9cc6dc", robe: "#3d7ea6", trim: "#2f6a8c", hair: "#8a5a2a",
    parts: [...FACE, "apron", "fringe", "bonnet", "shield"] },
  sycophant: { frame: "#a1621b", sky: "#f8e7cc", arch: "#e7bd80", robe: "#c47a26", trim: "#fff3d6", hair: "#f2efe8",
    parts: ["wigCurls", ...FACE, "grin", "collar", "fringe", "pointing"] },
  prince: { frame: "#1f5c8a", sky: "#d5e6f4", arch: "#97bfe0", robe: "#2c73ad", trim: "#f2c230", hair: "#c98a2e",
    parts: [...FACE, "sash", "shortHair", "smallCrown", "sword"] },
  count: { frame: "#2d3f66", sky: "#dbe1ef", arch: "#a3b1d3", robe: "#34497a", trim: "#e2ad2a", hat: "#1f2740", hair: "#4a3324",
    parts: [...FACE, "collar", "moustache", "monocle", "tricorn", "coins"] },
  chancellor: { frame: "#2c5a56", sky: "#d5ebe7", arch: "#9bcbc3", robe: "#306b64", trim: "#c9a34a", hat: "#1f3b38", hair: "#8c8c8c",
    parts: [...FACE, "collar", "beard", "spectacles", "flatCap", "scroll"] },
  king: { frame: "#7a1f3d", sky: "#f4dbe3", arch: "#dc9db2", robe: "#8e2448", trim: "#fbfbf6", hair: "#6b4424",
    parts: [...FACE, "ermine", "beard", "crown", "sceptre"] },
  constable: { frame: "#23324f", sky: "#d6dbe6", arch: "#9aa6bf", robe: "#2b3d61", trim: "#c9a34a", hat: "#1d2a44", hair: "#3a2a20",
    parts: [...FACE, "sash", "moustache", "kepi", "lantern"] },
  countess: { frame: "#a0294f", sky: "#f8dbe5", arch: "#eb9fb9", robe: "#c23a64", trim: "#2b1d21", hair: "#3a2420",
    parts: [...FACE, "collar", "bun", "flower", "fan"] },
  dowager_queen: { frame: "#4b3a66", sky: "#e3ddec", arch: "#b1a3c8", robe: "#5a4780", trim: "#e9e4f2", hair: "#d9d6d2",
    parts: ["veil", ...FACE, "frown", "ermine", "greyHair", "crown", "cane"] },
  princess: { frame: "#b0476b", sky: "#fde3ec", arch: "#f4aac2", robe: "#e06b93", trim: "#fbe2a0", hair: "#e8b83e",
    parts: ["longHair", ...FACE, "collar", "fringe", "tiara", "letter"] },
  bishop: { frame: "#6b5a1e", sky: "#f3ecd2", arch: "#d9c98b", robe: "#efe9d8", trim: "#c9a34a", hair: "#bdbdbd",
    parts: ["robe", "neck", "head", "face", "beard", "pectoral", "mitre", "crozier"] },
};

/** Whether a card has its own picture (else it is drawn as an unknown figure). */
export function hasArt(id) {
  return Object.hasOwn(CHARACTERS, id);
}

const UNKNOWN = { frame: "#6b5a5f", sky: "#eee8e4", arch: "#c9bdb7", robe: "#8a7a80", trim: "#c9bdb7", hair: "#6b5a5f", parts: FACE };

/** The picture of a character: its window, arch and figure (viewBox "0 0 100 140"). */
function picture(id) {
  const c = CHARACTERS[id] || UNKNOWN;
  return s("g", { class: "art-picture" },
    s("rect", { x: 6, y: 6, width: 88, height: 104, rx: 5, fill: c.sky }),
    s("path", { d: "M20 110 L20 50 A30 30 0 0 1 80 50 L80 110 Z", fill: c.arch }),
    s("path", { d: "M26 110 L26 52 A24 24 0 0 1 74 52 L74 110", fill: "none", stroke: "#ffffff", "stroke-opacity": 0.45, "stroke-width": 2 }),
    c.parts.map((part) => PARTS[part](c)),
    s("rect", { x: 6, y: 6, width: 88, height: 104, rx: 5, fill: "none", stroke: INK, "stroke-width": 1.2 }));
}

function svgOf(viewBox, ...children) {
  return s("svg", { viewBox, class: "art", "aria-hidden": "true", focusable: "false" }, ...children);
}

/** A card's label for assistive technology: "Guard (1)". */
function label(card) {
  return t("card.label", { name: card.name, rank: card.rank });
}

/**
 * The card's face: its picture, its number in the corner and its name under the picture.
 * `label` (default "Guard (1)") names it; `label: null` leaves the naming to its container.
 */
export function cardFace(card, { label: named = label(card) } = {}) {
  const c = CHARACTERS[card.card] || UNKNOWN;
  return h("div", { class: "card-face", "data-art": card.card, ...(named ? { role: "img", "aria-label": named } : {}) },
    svgOf("0 0 100 140",
      s("rect", { x: 0.75, y: 0.75, width: 98.5, height: 138.5, rx: 7, fill: "#fffaf0", stroke: c.frame, "stroke-width": 1.5 }),
      picture(card.card),
      s("rect", { x: 6, y: 114, width: 88, height: 21, rx: 4, fill: "#ffffff", stroke: c.frame, "stroke-width": 1.2 }),
      s("circle", { cx: 17, cy: 17, r: 10.5, fill: c.frame, stroke: "#ffffff", "stroke-width": 1.5 })),
    h("span", { class: "face-number rank", "aria-hidden": "true" }, card.rank),
    h("span", { class: "face-name name", "aria-hidden": "true" }, card.name));
}

/** A small card (for piles and sentences): the picture with its number; named "Guard (1)",
 *  its name as a tooltip too. */
export function smallCard(card, { label: named = label(card) } = {}) {
  const c = CHARACTERS[card.card] || UNKNOWN;
  return h("span", { class: "card-small", "data-art": card.card, title: card.name, ...(named ? { role: "img", "aria-label": named } : {}) },
    svgOf("6 6 88 104", picture(card.card), s("circle", { cx: 21, cy: 21, r: 15, fill: c.frame, stroke: "#ffffff", "stroke-width": 2 })),
    h("span", { class: "small-number", "aria-hidden": "true" }, card.rank));
}

/** A card nobody may see: its back, small like a pile's cards. */
export function cardBack({ label: named = t("card.hidden") } = {}) {
  return h("span", { class: "card-small back", role: "img", "aria-label": named, title: named },
    svgOf("6 6 88 104",
      s("rect", { x: 6, y: 6, width: 88, height: 104, rx: 5, fill: "#7a1f3d", stroke: "#f6d36b", "stroke-width": 2 }),
      s("rect", { x: 12, y: 12, width: 76, height: 92, rx: 3, fill: "none", stroke: "#f6d36b", "stroke-width": 1, "stroke-dasharray": "3 2" }),
      heart(50, 52, 14, "#f6d36b")));
}
