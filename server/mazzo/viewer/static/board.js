// The board is a pure function of one frame: given the match, the frame's index and a
// perspective, it builds the DOM of the table. It knows nothing of the network.

import { cardBack, cardFace } from "./cards.js";
/** @import { Area, Match, Seat, Table } from "./types.js" */

/** @typedef {"all" | number} Perspective "all": everything; a number: exactly what that seat's GetView shows. */

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
 * @param {string[]} codes
 * @param {Match} match
 * @param {(number | null)[] | null} by
 * @param {string[]} signals
 * @returns {HTMLElement}
 */
function cardRow(codes, match, by = null, signals = []) {
  const row = h("div", "cards");
  codes.forEach((code, i) => {
    const face = cardFace(code, match.deck);
    const seat = by?.[i];
    const signal = signals[i] ?? "";
    if (seat === undefined || seat === null) {
      row.append(face);
    } else {
      const caption = `seat ${seat}` + (signal ? ` · ${signal}` : "");
      row.append(h("figure", "played", face, h("figcaption", "", caption)));
    }
  });
  return row;
}

/**
 * @param {number} count
 * @returns {HTMLElement}
 */
function heap(count) {
  const row = h("div", "cards heap");
  if (count > 0) row.append(cardBack());
  row.append(h("span", "count", `${count} card${count === 1 ? "" : "s"}`));
  return row;
}

/**
 * @param {Seat} seat
 * @param {Match} match
 * @param {Table} table
 * @param {Perspective} perspective
 * @returns {HTMLElement}
 */
function seatPanel(seat, match, table, perspective) {
  const panel = h("section", "seat");
  panel.dataset["seat"] = String(seat.seat);
  if (seat.notes.includes("to act")) panel.classList.add("to-act");
  if (perspective === seat.seat) panel.classList.add("viewer");
  const name = match.names[seat.seat] ?? `seat ${seat.seat}`;
  const notes = seat.notes.length ? ` — ${seat.notes.join(", ")}` : "";
  panel.append(h("h3", "", `${name}${notes}`));
  if (seat.hand !== null) {
    const row = cardRow(seat.hand, match);
    row.classList.add("hand");
    panel.append(row);
  } else {
    const row = h("div", "cards hand hidden");
    for (let i = 0; i < Math.min(seat.count, 14); i++) row.append(cardBack());
    row.append(h("span", "count", `${seat.count} hidden`));
    panel.append(row);
  }
  void table;
  return panel;
}

/**
 * @param {Area} area
 * @param {Match} match
 * @returns {HTMLElement}
 */
function areaPanel(area, match) {
  const panel = h("section", "area");
  panel.append(h("h3", "", area.label));
  if (area.cards.length) panel.append(cardRow(area.cards, match, area.by, area.signals ?? []));
  else if (area.count !== null) panel.append(heap(area.count));
  else panel.append(h("div", "empty", "empty"));
  return panel;
}

/**
 * The table of frame `index` from `perspective`.
 * @param {Match} match
 * @param {number} index
 * @param {Perspective} perspective
 * @returns {HTMLElement}
 */
export function drawTable(match, index, perspective) {
  const frame = match.frames[index];
  if (frame === undefined) return h("div", "board");
  const table = perspective === "all" ? frame.table : frame.seats[perspective];
  const board = h("div", "board");
  if (table === undefined || table === null) return board;
  board.dataset["perspective"] = String(perspective);
  const facts = h("dl", "facts");
  for (const [label, text] of table.facts) facts.append(h("dt", "", label), h("dd", "", text));
  const seats = h("div", "seats");
  for (const seat of table.seats) seats.append(seatPanel(seat, match, table, perspective));
  const areas = h("div", "areas");
  for (const area of table.areas) areas.append(areaPanel(area, match));
  board.append(seats, areas, facts);
  return board;
}

/**
 * The score after every hand so far, and the match score now.
 * @param {Match} match
 * @param {number} index
 * @returns {HTMLElement}
 */
export function drawScores(match, index) {
  const frame = match.frames[index];
  const wrap = h("div", "scores");
  const table = h("table", "");
  const sides = frame?.matchScore.length ?? 0;
  const head = h("tr", "", h("th", "", "hand"));
  for (let s = 0; s < sides; s++) head.append(h("th", "", `side ${s}`));
  table.append(h("thead", "", head));
  const body = h("tbody", "");
  for (const score of match.scores) {
    if (score.ply > index) break;
    const row = h("tr", "", h("td", "", `hand ${score.hand} (move ${score.ply})`));
    row.dataset["ply"] = String(score.ply);
    score.totals.forEach((total, s) => {
      const cell = h("td", "", `${total}`);
      cell.title = `hand: ${score.points[s] ?? ""}`;
      row.append(cell);
    });
    body.append(row);
  }
  const now = h("tr", "now", h("td", "", "now"));
  frame?.matchScore.forEach((total) => now.append(h("td", "", `${total}`)));
  body.append(now);
  table.append(body);
  wrap.append(table);
  return wrap;
}

/**
 * The moves and events up to frame `index`, newest last (the last `keep`).
 * @param {Match} match
 * @param {number} index
 * @param {number} keep
 * @returns {HTMLElement}
 */
export function drawLog(match, index, keep = 40) {
  const list = h("ol", "log");
  const start = Math.max(1, index - keep + 1);
  list.start = start;
  for (let k = start; k <= index; k++) {
    const frame = match.frames[k];
    if (frame === undefined) continue;
    const fault = frame.fault ? ` [fault: ${frame.fault}]` : "";
    const item = h("li", k === index ? "current" : "", `seat ${frame.seat}: ${frame.move}${fault}`);
    if (frame.events.length) item.append(h("div", "events", frame.events.join("; ")));
    list.append(item);
  }
  return list;
}
