// The rummy games' moves on a person's page (play.js), built by picking cards: Burraco
// (every form) and Ramino. The person picks cards in the hand (click, or the arrows
// and Enter/Space) and the page offers the service's legal moves that use exactly the
// cards picked: a new meld, a lay-off (onto a meld of the table, chosen by clicking
// it), a discard, Ramino's close with its discard. The moves that use no card (draw
// from the stock, pick up the discard pile, Ramino's bets) are always offered.
//
// No rule is here: each legal move comes from POST /play/draw with the cards of the
// hand it uses (`uses`) and the meld it goes onto (`onto`), read by the server from
// the move itself (server/mazzo/viewer/picks.py); this module only compares the
// cards picked with them.

import { cardFace } from "./cards.js";
/** @import { Deck, Table } from "./types.js" */

/**
 * A legal move as the server draws it for a game whose moves are picked.
 * @typedef {object} PickedMove
 * @property {string} text The move in words.
 * @property {string} [kind] Its kind, as the move's JSON names it ("meld", "layOff", "discard", "draw"...).
 * @property {string[]} [uses] The cards of the hand it puts down ("4S"), a card twice for both copies.
 * @property {number | null} [onto] The id of the meld it lays off onto.
 */

/**
 * @typedef {object} Meld
 * @property {number} id
 * @property {string} label
 * @property {string[]} cards
 */

/**
 * What this module reads of a drawn decision (play.js's Drawn).
 * @typedef {object} Picking
 * @property {number} seat
 * @property {Deck} deck
 * @property {Table} table
 * @property {PickedMove[]} moves
 * @property {Meld[]} [melds]
 * @property {string[]} [notes] Beside the cards, in words (Burraco's pozzetti).
 */

/** The cards picked (positions in the hand), for the decision `key`. */
let picked = { key: "", at: /** @type {number[]} */ ([]) };

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} className
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
function h(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) node.append(child);
  return node;
}

/**
 * How many of each card.
 * @param {string[]} codes
 * @returns {Map<string, number>}
 */
function counted(codes) {
  const out = new Map();
  for (const code of codes) out.set(code, (out.get(code) ?? 0) + 1);
  return out;
}

/**
 * Every card of `part` is in `whole` (as many times).
 * @param {Map<string, number>} part
 * @param {Map<string, number>} whole
 * @returns {boolean}
 */
function within(part, whole) {
  for (const [code, n] of part) if ((whole.get(code) ?? 0) < n) return false;
  return true;
}

/**
 * @param {string[]} a
 * @param {string[]} b
 * @returns {boolean}
 */
function same(a, b) {
  return a.length === b.length && within(counted(a), counted(b));
}

/**
 * A move's button, as play.js draws them (`button.move`, its index, its words).
 * @param {string} className
 * @param {number} index
 * @param {string} text
 * @param {number[]} order The moves in the order their keys (1-9) choose them.
 * @param {(index: number) => void} choose
 * @returns {HTMLButtonElement}
 */
function moveButton(className, index, text, order, choose) {
  const button = h("button", className);
  button.type = "button";
  button.dataset["index"] = String(index);
  const key = order.length < 9 ? order.length + 1 : null;
  order.push(index);
  button.setAttribute("aria-label", `${key === null ? "" : `${key}: `}${text}`);
  button.title = text;
  if (className.includes("words")) button.append(h("span", "", text));
  if (key !== null) button.append(h("span", "key", String(key)));
  button.addEventListener("click", () => choose(index));
  return button;
}

/**
 * Draws the decision's moves into `box` for picking, and returns the moves in the
 * order their keys (1-9) choose them.
 * @param {HTMLElement} box
 * @param {Picking} drawn
 * @param {string} key The decision's sequence number: a new decision clears the cards picked.
 * @param {(index: number) => void} choose Answer with the move of this index.
 * @param {() => void} redraw Draw the moves again (after a card is picked).
 * @returns {number[]}
 */
export function drawPicking(box, drawn, key, choose, redraw) {
  if (picked.key !== key) picked = { key, at: [] };
  // Drawn again after each card picked: the focus goes back to the same card.
  const focused = /** @type {HTMLElement | null} */ (document.activeElement);
  const hadFocus = box.contains(focused);
  const focusedPos = hadFocus ? (focused?.dataset["pos"] ?? null) : null;

  const hand = drawn.table.seats.find((s) => s.seat === drawn.seat)?.hand ?? [];
  const have = counted(hand);
  picked.at = picked.at.filter((p) => p < hand.length);
  const chosen = picked.at.map((p) => hand[p] ?? "");
  const want = counted(chosen);
  const moves = drawn.moves.map((move, index) => ({ move: { ...move, uses: move.uses ?? [] }, index }));
  // A move whose cards the hand shown does not hold (a hand not to be seen yet) cannot
  // be picked: it is offered as a button, as every move is on the other games' pages.
  const pickable = moves.filter(({ move }) => move.uses.length > 0 && within(counted(move.uses), have));
  const free = moves.filter(({ move }) => !pickable.some((p) => p.move === move));
  const exact = pickable.filter(({ move }) => same(move.uses, chosen));
  const more = pickable.filter(({ move }) => within(want, counted(move.uses)) && !same(move.uses, chosen));

  /** @type {number[]} */
  const order = [];
  const panel = h("div", "picking");

  // The hand: each card a toggle, usable when some legal move uses it with the cards picked.
  if (hand.length) {
    const row = h("div", "pick-hand");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", "your hand: pick the cards of a move");
    hand.forEach((code, pos) => {
      const on = picked.at.includes(pos);
      const wider = counted([...chosen, code]);
      const useful = on || pickable.some(({ move }) => within(wider, counted(move.uses)));
      const button = h("button", on ? "pick picked" : "pick", cardFace(code, drawn.deck));
      button.type = "button";
      button.dataset["pos"] = String(pos);
      button.dataset["card"] = code;
      button.setAttribute("aria-pressed", String(on));
      // Not `disabled`: the arrow keys still move over it (play.js), a click does nothing.
      button.setAttribute("aria-disabled", String(!useful));
      button.addEventListener("click", () => {
        if (!useful) return;
        picked.at = on ? picked.at.filter((p) => p !== pos) : [...picked.at, pos];
        redraw();
      });
      row.append(button);
    });
    panel.append(row);
  }

  // What the cards picked make: the moves that use exactly them, then a word on the rest.
  const words = h("p", "pick-hint");
  words.setAttribute("aria-live", "polite");
  if (!pickable.length) words.textContent = "";
  else if (!chosen.length) words.textContent = "pick cards from your hand: the moves that use exactly those cards appear here";
  else if (!exact.length) words.textContent = `no move uses exactly these ${chosen.length} cards; ${more.length} use them and more`;
  else words.textContent = `moves with the ${chosen.length === 1 ? "card" : `${chosen.length} cards`} picked:`;
  const made = h("div", "pick-moves");
  for (const { move, index } of exact) {
    if (move.kind === "layOff") continue; // chosen on its meld, below
    made.append(moveButton("move words", index, move.text, order, choose));
  }
  if (chosen.length) {
    const clear = h("button", "pick-clear", "clear");
    clear.type = "button";
    clear.addEventListener("click", () => {
      picked.at = [];
      redraw();
    });
    made.append(clear);
  }
  if (words.textContent) panel.append(words);
  panel.append(made);

  // The melds on the table; those the cards picked can be laid off onto are buttons.
  const melds = drawn.melds ?? [];
  if (melds.length) {
    const list = h("div", "pick-melds");
    list.append(h("h3", "", "melds on the table"));
    for (const meld of melds) {
      const cards = h("div", "cards");
      for (const code of meld.cards) cards.append(cardFace(code, drawn.deck));
      const onto = exact.find(({ move }) => move.kind === "layOff" && move.onto === meld.id);
      if (onto === undefined) {
        const plain = h("div", "meld", h("span", "meld-label", meld.label), cards);
        plain.dataset["meld"] = String(meld.id);
        list.append(plain);
      } else {
        const button = moveButton("move meld target", onto.index, onto.move.text, order, choose);
        button.dataset["meld"] = String(meld.id);
        button.prepend(h("span", "meld-label", `${meld.label}: lay off here`), cards);
        list.append(button);
      }
    }
    panel.append(list);
  }

  const notes = drawn.notes ?? [];
  if (notes.length) panel.append(h("p", "pick-notes", notes.join(" · ")));

  // The moves that use no card (draw, pick up the pile, bet, close without discarding).
  if (free.length) {
    const row = h("div", "word-list pick-free");
    for (const { move, index } of free) row.append(moveButton("move words", index, move.text, order, choose));
    panel.append(row);
  }

  box.replaceChildren(panel);
  // The focus stays where it was (the same card of the hand), or goes to the first choice.
  const again = focusedPos === null ? null : box.querySelector(`button[data-pos="${focusedPos}"]`);
  const first = box.querySelector('button:not([aria-disabled="true"])');
  if (again instanceof HTMLElement) again.focus();
  else if (first instanceof HTMLElement && (hadFocus || !box.contains(document.activeElement))) first.focus();
  return order;
}
