// Maraffa's forms on a person's page (play.js): Trionfo's auction and called partner,
// the 3-player dummy, the 2-player stock. Everything drawn here comes from the server
// (POST /play/draw and the seat's feed, viewer/play_maraffa.py), read from the seat's
// own GetView and its legal moves: the highest bid, whose the dummy is, the cards
// drawn. No rule is here; the moves are only grouped by the labels the server gave
// them (a bid, a pass, trumps with a called card: the 120 declarations of a CHIAMO
// are chosen by suit, then by card).

import { cardFace } from "./cards.js";
/** @import { Deck } from "./types.js" */

/**
 * @typedef {object} Speech
 * @property {number} seat
 * @property {string} speech "chiamo", "maso", "pass", …
 */

/**
 * @typedef {object} Auction
 * @property {string} phase
 * @property {number} firstSpeaker
 * @property {Speech[]} speeches
 * @property {{ seat: number; bid: string } | null} high
 * @property {number | null} declarer
 * @property {string | null} contract
 * @property {string | null} trump
 * @property {string | null} calledCard
 * @property {number | null} amico
 */

/**
 * What the server says of the form (viewer/play_maraffa.py form_of).
 * @typedef {object} MaraffaForm
 * @property {"trionfo" | "dummy" | "stock" | "four" | "deck39"} form
 * @property {Auction} [auction]
 * @property {{ seat: number; controller: number; forDummy: boolean; shown: boolean }} [dummy]
 * @property {{ size: number; drawn: string[]; last: string[] }} [stock]
 */

/**
 * A move's label (viewer/play_maraffa.py move_part).
 * @typedef {{ kind: "bid"; bid: string } | { kind: "pass" } | { kind: "trumps"; suit: string; called: string | null }} MovePart
 */

/**
 * @typedef {object} LabelledMove
 * @property {string} text
 * @property {string | null} card
 * @property {MovePart | null} [part]
 */

/** The suit whose called cards are shown (a CHIAMO's declaration), until chosen. */
let chosenSuit = /** @type {string | null} */ (null);

/**
 * @param {string} tag
 * @param {string} className
 * @param {...(Node | string)} children
 * @returns {HTMLElement}
 */
function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) node.append(child);
  return node;
}

/**
 * @param {number} s
 * @param {number[]} mine The person's seats.
 * @returns {string}
 */
function who(s, mine) {
  return mine.includes(s) ? `seat ${s} (you)` : `seat ${s}`;
}

/**
 * A fact line of the panel: `label: value`, the value maybe a card.
 * @param {string} label
 * @param {string | Node} value
 * @param {string} key For tests: data-fact.
 * @returns {HTMLElement}
 */
function fact(label, value, key) {
  const row = el("div", "form-fact", el("span", "form-label", `${label}: `), value);
  row.dataset["fact"] = key;
  return row;
}

/**
 * @param {Auction} a
 * @param {number[]} mine
 * @param {Deck} deck
 * @returns {HTMLElement[]}
 */
function auctionPanel(a, mine, deck) {
  const out = [];
  const list = el("ol", "speeches");
  for (const s of a.speeches) {
    const item = el("li", s.speech === "pass" ? "pass" : "bid", `${who(s.seat, mine)}: ${s.speech}`);
    item.dataset["seat"] = String(s.seat);
    item.dataset["speech"] = s.speech;
    list.append(item);
  }
  if (!a.speeches.length) list.append(el("li", "none", `nobody has spoken yet; ${who(a.firstSpeaker, mine)} speaks first`));
  out.push(el("div", "form-fact", el("span", "form-label", "bids so far:"), list));
  out.push(fact("highest bid", a.high ? `${a.high.bid}, by ${who(a.high.seat, mine)}` : "none yet", "high"));
  if (a.contract !== null && a.declarer !== null) {
    out.push(fact("contract", `${a.contract}, declared by ${who(a.declarer, mine)}`, "contract"));
  }
  if (a.trump !== null) out.push(fact("trumps", a.trump, "trump"));
  if (a.calledCard !== null) {
    const face = el("span", "called", cardFace(a.calledCard, deck));
    face.dataset["card"] = a.calledCard;
    out.push(fact("called card", face, "called"));
    const partner = a.amico === null ? "secret until the called card is played" : who(a.amico, mine);
    out.push(fact("partner (amico)", partner, "amico"));
  }
  return out;
}

/**
 * The form's panel: the auction (Trionfo), the dummy (3 players), the stock (2).
 * @param {HTMLElement} box
 * @param {MaraffaForm | null | undefined} form
 * @param {number[]} mine The person's seats.
 * @param {Deck} deck
 */
export function renderForm(box, form, mine, deck) {
  box.replaceChildren();
  box.hidden = true;
  if (!form) return;
  /** @type {HTMLElement[]} */
  let parts = [];
  if (form.auction) {
    parts = auctionPanel(form.auction, mine, deck);
  } else if (form.dummy) {
    const d = form.dummy;
    const by = mine.includes(d.controller) ? "you (seat " + d.controller + ")" : `seat ${d.controller}`;
    parts.push(fact("dummy", `seat ${d.seat}, played by ${by}`, "dummy"));
    if (d.forDummy) parts.push(fact("now", `you play for the dummy (seat ${d.seat}), from its hand`, "for-dummy"));
  } else if (form.stock) {
    const s = form.stock;
    parts.push(fact("stock", `${s.size} card${s.size === 1 ? "" : "s"} left`, "stock"));
    if (s.last.length) {
      const row = el("span", "cards");
      for (const c of s.last) row.append(cardFace(c, deck));
      parts.push(fact("last drawn", row, "drawn"));
    }
  }
  if (!parts.length) return;
  box.append(el("h2", "", form.auction ? "The auction" : form.dummy ? "The dummy" : "The stock"), ...parts);
  box.dataset["form"] = form.form;
  box.hidden = false;
}

/**
 * The moves this module draws, out of `moves`: the bids and the pass as a row of
 * buttons; trumps with a called card by suit, then the suit's cards. Returns the
 * indices drawn (play.js draws the rest).
 * @param {HTMLElement} box
 * @param {LabelledMove[]} moves
 * @param {(index: number, face: string | null) => HTMLButtonElement} button A move's button (play.js's, with its key).
 * @param {() => void} redraw
 * @returns {Set<number>}
 */
export function renderFormMoves(box, moves, button, redraw) {
  /** @type {Set<number>} */
  const drawn = new Set();
  const speeches = moves.flatMap((move, index) => (move.part?.kind === "bid" || move.part?.kind === "pass" ? [index] : []));
  if (speeches.length) {
    const row = el("div", "bid-moves");
    for (const index of speeches) {
      row.append(button(index, null));
      drawn.add(index);
    }
    box.append(row);
  }
  /** @type {Map<string, { index: number; called: string | null }[]>} */
  const bySuit = new Map();
  moves.forEach((move, index) => {
    if (move.part?.kind !== "trumps") return;
    const list = bySuit.get(move.part.suit) ?? [];
    list.push({ index, called: move.part.called });
    bySuit.set(move.part.suit, list);
  });
  const calling = [...bySuit.values()].some((list) => list.some((m) => m.called !== null));
  if (!calling) {
    chosenSuit = null;
    return drawn; // one move a suit: play.js's buttons, in its words
  }
  if (chosenSuit !== null && !bySuit.has(chosenSuit)) chosenSuit = null;
  const suits = el("div", "suit-choice");
  suits.append(el("span", "form-label", "trumps: "));
  for (const suit of bySuit.keys()) {
    const pick = /** @type {HTMLButtonElement} */ (el("button", suit === chosenSuit ? "suit chosen" : "suit", suit));
    pick.type = "button";
    pick.dataset["suit"] = suit;
    pick.setAttribute("aria-pressed", String(suit === chosenSuit));
    pick.addEventListener("click", () => {
      chosenSuit = suit;
      redraw();
    });
    suits.append(pick);
  }
  box.append(suits);
  for (const list of bySuit.values()) for (const m of list) drawn.add(m.index);
  if (chosenSuit !== null) {
    const row = el("div", "hand-moves called-moves");
    row.append(el("span", "form-label", `${chosenSuit} as trumps, calling: `));
    for (const m of bySuit.get(chosenSuit) ?? []) row.append(button(m.index, m.called));
    box.append(row);
  }
  return drawn;
}
