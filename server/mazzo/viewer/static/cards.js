// Card faces drawn as SVG by the project: the Italian 40-card deck for Maraffa (coppe,
// denari, spade, bastoni) and the French deck with jokers for Burraco and Ramino.
// Every face carries its rank and its suit's symbol: colour is never the only signal.

/** @import { Deck } from "./types.js" */

const SVG = "http://www.w3.org/2000/svg";

/**
 * @typedef {object} SuitLook
 * @property {string} name
 * @property {string} colour
 * @property {string[]} draw Path(s) of the symbol in a 20 x 20 box centred on (0, 0).
 */

// French suits: code letters S, H, D, C.
/** @type {Record<string, SuitLook>} */
const FRENCH = {
  S: {
    name: "spades",
    colour: "#1a1a1a",
    draw: ["M0,-9 C6,-3 9,0 9,3 C9,7 4,8 1,5 L3,9 L-3,9 L-1,5 C-4,8 -9,7 -9,3 C-9,0 -6,-3 0,-9 Z"],
  },
  H: {
    name: "hearts",
    colour: "#c8102e",
    draw: ["M0,9 C-6,4 -9,0 -9,-4 C-9,-9 -2,-9 0,-4 C2,-9 9,-9 9,-4 C9,0 6,4 0,9 Z"],
  },
  D: { name: "diamonds", colour: "#c8102e", draw: ["M0,-9 L7,0 L0,9 L-7,0 Z"] },
  C: {
    name: "clubs",
    colour: "#1a1a1a",
    draw: [
      "M0,-9 a4,4 0 1,1 0.01,0 Z",
      "M-5,-1 a4,4 0 1,1 0.01,0 Z",
      "M5,-1 a4,4 0 1,1 0.01,0 Z",
      "M-1,2 L1,2 L3,9 L-3,9 Z",
    ],
  },
};

// Italian suits on the same letters (docs/rules/README.md): S spade (swords), H coppe
// (cups), D denari (coins), C bastoni (batons).
/** @type {Record<string, SuitLook>} */
const ITALIAN = {
  S: {
    name: "spade",
    colour: "#1f4e9c",
    draw: ["M-1.2,-9 L1.2,-9 L1.2,4 L-1.2,4 Z", "M-6,3 L6,3 L6,5 L-6,5 Z", "M-1.5,5 L1.5,5 L1.5,9 L-1.5,9 Z"],
  },
  H: {
    name: "coppe",
    colour: "#b3261e",
    draw: ["M-8,-8 L8,-8 C8,-1 4,2 0,2 C-4,2 -8,-1 -8,-8 Z", "M-1.2,2 L1.2,2 L1.2,6 L-1.2,6 Z", "M-5,6 L5,6 L5,9 L-5,9 Z"],
  },
  D: {
    name: "denari",
    colour: "#a67c00",
    draw: ["M0,-9 a9,9 0 1,1 -0.01,0 Z M0,-5 a5,5 0 1,0 0.01,0 Z", "M0,-2 a2,2 0 1,1 -0.01,0 Z"],
  },
  C: {
    name: "bastoni",
    colour: "#2e6b30",
    draw: ["M-2,-9 C2,-9 4,-6 3,-2 L2,9 L-2,9 L-3,-2 C-4,-6 -4,-9 -2,-9 Z", "M3,-4 L6,-6 L6,-3 L3,-1 Z", "M-3,1 L-6,-1 L-6,2 L-3,4 Z"],
  },
};

/** @type {Record<string, [string, string]>} */
const ITALIAN_RANKS = {
  A: ["A", "asso"],
  J: ["F", "fante"],
  Q: ["C", "cavallo"],
  K: ["R", "re"],
};
/** @type {Record<string, [string, string]>} */
const FRENCH_RANKS = {
  A: ["A", "ace"],
  T: ["10", "10"],
  J: ["J", "jack"],
  Q: ["Q", "queen"],
  K: ["K", "king"],
};

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElementTagNameMap[K]}
 */
function el(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * @param {SuitLook} look
 * @param {number} x
 * @param {number} y
 * @param {number} scale
 * @returns {SVGGElement}
 */
function symbol(look, x, y, scale) {
  const g = el("g", { transform: `translate(${x} ${y}) scale(${scale})`, fill: look.colour });
  for (const d of look.draw) g.appendChild(el("path", { d, "fill-rule": "evenodd" }));
  return g;
}

/**
 * The words for a card, e.g. "3 di denari" or "queen of hearts".
 * @param {string} code
 * @param {Deck} deck
 * @returns {string}
 */
export function cardName(code, deck) {
  if (code === "JK") return "joker";
  const rank = code[0] ?? "?";
  const suit = code[1] ?? "?";
  if (deck === "italian") {
    const look = ITALIAN[suit];
    const word = ITALIAN_RANKS[rank]?.[1] ?? rank;
    return `${word} di ${look?.name ?? suit}`;
  }
  const word = FRENCH_RANKS[rank]?.[1] ?? rank;
  return `${word} of ${FRENCH[suit]?.name ?? suit}`;
}

/**
 * A card face: rank in two corners, the suit's symbol in the corners and the middle.
 * @param {string} code
 * @param {Deck} deck
 * @returns {SVGSVGElement}
 */
export function cardFace(code, deck) {
  const svg = el("svg", { viewBox: "0 0 50 70", class: "card", role: "img" });
  svg.dataset["card"] = code;
  svg.setAttribute("aria-label", cardName(code, deck));
  const title = el("title", {});
  title.textContent = cardName(code, deck);
  svg.appendChild(title);
  svg.appendChild(el("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#fffdf7", stroke: "#555" }));
  if (code === "JK") {
    const star = el("path", {
      d: "M25,18 L29,30 L41,30 L31,38 L35,50 L25,42 L15,50 L19,38 L9,30 L21,30 Z",
      fill: "#6a1b9a",
    });
    svg.appendChild(star);
    const text = el("text", { x: 25, y: 64, "text-anchor": "middle", "font-size": 9, fill: "#6a1b9a" });
    text.textContent = "JOKER";
    svg.appendChild(text);
    return svg;
  }
  const rank = code[0] ?? "?";
  const suit = code[1] ?? "?";
  const look = (deck === "italian" ? ITALIAN : FRENCH)[suit];
  const label = (deck === "italian" ? ITALIAN_RANKS : FRENCH_RANKS)[rank]?.[0] ?? rank;
  const colour = look?.colour ?? "#000";
  const corner = el("text", { x: 5, y: 15, "font-size": 13, "font-weight": "bold", fill: colour });
  corner.textContent = label;
  svg.appendChild(corner);
  const flipped = el("text", {
    x: 5,
    y: 15,
    "font-size": 13,
    "font-weight": "bold",
    fill: colour,
    transform: "rotate(180 25 35)",
  });
  flipped.textContent = label;
  svg.appendChild(flipped);
  if (look !== undefined) {
    svg.appendChild(symbol(look, 9, 24, 0.4));
    svg.appendChild(symbol(look, 41, 46, 0.4));
    svg.appendChild(symbol(look, 25, 36, 1.1));
  }
  return svg;
}

/**
 * The back of a card, for hidden hands and face-down heaps.
 * @returns {SVGSVGElement}
 */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 50 70", class: "card back", "aria-hidden": "true" });
  svg.appendChild(el("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#24527a", stroke: "#555" }));
  svg.appendChild(el("rect", { x: 6, y: 6, width: 38, height: 58, rx: 3, fill: "none", stroke: "#9cc3e6" }));
  return svg;
}
