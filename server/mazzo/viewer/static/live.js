// The live page: follows a running `mazzo match --ui` or `mazzo tournament --ui` through
// server-sent events (/live/events), with no reload and no polling. Every table is drawn
// by board.ts from what the server sends, which is public information only while a hand
// runs (server/mazzo/viewer/watch.py); the page holds no rule of any game.

import { drawTable } from "./board.js";
import { cardFace } from "./cards.js";
/** @import { Deck, Frame, Match, Table } from "./types.js" */

/**
 * @typedef {object} Position
 * @property {string} id
 * @property {number} ply
 * @property {number} at
 * @property {number | null} toAct
 * @property {boolean} finished
 * @property {number[]} matchScore
 * @property {number} hand
 * @property {Table} table
 */

/**
 * @typedef {Position & {
 *   type: "match";
 *   game: string;
 *   players: number;
 *   names: string[];
 *   deck: Deck;
 *   entrants: string[];
 * }} Start
 */

/**
 * @typedef {Position & {
 *   type: "move";
 *   seat: number;
 *   move: string;
 *   fault: string | null;
 *   events: string[];
 * }} Move
 */

/**
 * @typedef {object} Reveal
 * @property {"reveal"} type
 * @property {string} id
 * @property {number} ply
 * @property {number} hand
 * @property {string} reason
 * @property {Table} table
 * @property {string[][]} [dealt]
 * @property {number} at
 */

/**
 * @typedef {object} End
 * @property {"end"} type
 * @property {string} id
 * @property {string[]} winners
 * @property {number[]} totals
 * @property {{ entrant: string; reason: string } | null} forfeit
 * @property {number} moves
 * @property {number} faults
 */

/**
 * @typedef {object} Row
 * @property {string} name
 * @property {number} matches
 * @property {number} win_rate
 * @property {[number, number]} win_rate_ci
 * @property {{ elo: number; ci: [number, number] }} [elo]
 * @property {{ mu: number; sigma: number }} openskill
 * @property {number} faults
 */

/**
 * @typedef {object} ChartPoint
 * @property {number} matches
 * @property {Record<string, [number, number]>} ratings
 */

/**
 * @typedef {object} Fault
 * @property {string} id
 * @property {number} ply
 * @property {number} seat
 * @property {string} class
 */

/**
 * @typedef {object} Standings
 * @property {"standings" | "over"} type
 * @property {{ done: number; total: number }} progress
 * @property {Row[]} standings
 * @property {ChartPoint[]} chart
 * @property {Fault[]} faults
 */

/**
 * @typedef {object} Live
 * @property {Start} start
 * @property {Move | null} last
 * @property {string[]} log
 * @property {Reveal | null} reveal
 */

/**
 * @typedef {object} Snapshot
 * @property {"snapshot"} type
 * @property {string} title
 * @property {string[]} entrants
 * @property {number | null} revealAfter
 * @property {string | null} [privacy] What the tables show, when the host says it itself.
 * @property {{ done: number; total: number }} progress
 * @property {Row[]} standings
 * @property {ChartPoint[]} chart
 * @property {Fault[]} faults
 * @property {Live[]} tables
 * @property {End[]} finished
 * @property {boolean} over
 */

/** @typedef {Snapshot | Start | Move | Reveal | End | Standings} Message */

/** Kept for tests and for measuring: every event's data as received, when, and each
 * move's delay from the referee's move (ms). Bounded: the oldest go first. */
const KEEP = 50000;
const record = {
  loadedAt: `${Date.now()}-${Math.random()}`,
  events: /** @type {string[]} */ ([]),
  latencies: /** @type {number[]} */ ([]),
  snapshots: 0,
};
/** @type {{ mazzoLive: typeof record }} */ (/** @type {unknown} */ (window)).mazzoLive = record;

const state = {
  title: "",
  tables: /** @type {Map<string, Live>} */ (new Map()),
  finished: /** @type {End[]} */ ([]),
  standings: /** @type {Row[]} */ ([]),
  chart: /** @type {ChartPoint[]} */ ([]),
  faults: /** @type {Fault[]} */ ([]),
  progress: { done: 0, total: 0 },
  over: false,
  revealAfter: /** @type {number | null} */ (null),
  privacy: /** @type {string | null} */ (null),
};

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @returns {T}
 */
function byId(id) {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return /** @type {T} */ (node);
}

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

const dirty = { tables: /** @type {Set<string>} */ (new Set()), all: true, standings: true };
let scheduled = false;

/** @returns {void} */
function schedule() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    render();
  });
}

/** @returns {number} */
function now() {
  return performance.timeOrigin + performance.now();
}

/**
 * @param {string} data
 * @returns {void}
 */
function receive(data) {
  const received = now();
  record.events.push(data);
  if (record.events.length > KEEP) record.events.splice(0, record.events.length - KEEP);
  const message = /** @type {Message} */ (JSON.parse(data));
  switch (message.type) {
    case "snapshot":
      record.snapshots += 1;
      state.title = message.title;
      state.revealAfter = message.revealAfter;
      state.privacy = message.privacy ?? null;
      state.tables = new Map(message.tables.map((t) => [t.start.id, t]));
      state.finished = message.finished;
      state.standings = message.standings;
      state.chart = message.chart;
      state.faults = message.faults;
      state.progress = message.progress;
      state.over = message.over;
      dirty.all = true;
      dirty.standings = true;
      break;
    case "match":
      state.tables.set(message.id, { start: message, last: null, log: [], reveal: null });
      dirty.tables.add(message.id);
      break;
    case "move": {
      record.latencies.push(received - message.at * 1000);
      if (record.latencies.length > KEEP) record.latencies.shift();
      const live = state.tables.get(message.id);
      if (live === undefined) break;
      live.last = message;
      const fault = message.fault ? ` [fault: ${message.fault}]` : "";
      live.log = [...live.log.slice(-11), `${message.ply}. seat ${message.seat}: ${message.move}${fault}`];
      if (message.fault) {
        state.faults = [...state.faults.slice(-99), { id: message.id, ply: message.ply, seat: message.seat, class: message.fault }];
        dirty.standings = true;
      }
      dirty.tables.add(message.id);
      break;
    }
    case "reveal": {
      const live = state.tables.get(message.id);
      if (live !== undefined) live.reveal = message;
      dirty.tables.add(message.id);
      break;
    }
    case "end":
      state.tables.delete(message.id);
      state.finished = [...state.finished.slice(-499), message];
      dirty.all = true;
      break;
    case "standings":
    case "over":
      state.progress = message.progress;
      state.standings = message.standings;
      if (message.chart.length) {
        const last = state.chart[state.chart.length - 1];
        const point = message.chart[message.chart.length - 1];
        if (point !== undefined && (last === undefined || last.matches !== point.matches)) state.chart.push(point);
        if (state.chart.length > 400) state.chart = state.chart.filter((_, i) => i % 2 === 1);
      }
      if (message.type === "over") {
        state.over = true;
        source.close(); // nothing more will come: no reconnecting to a server that stops
        byId("connection").textContent = "the event is over";
      }
      dirty.standings = true;
      break;
  }
  schedule();
}

// ------------------------------------------------------------------------- drawing

/**
 * @param {Live} live
 * @returns {Match}
 */
function matchOf(live) {
  /** @type {Position} */
  const position = live.last ?? live.start;
  const last = live.last;
  /** @type {Frame} */
  const frame = {
    ply: position.ply,
    hand: position.hand,
    seat: last?.seat ?? null,
    move: last?.move ?? null,
    fault: last?.fault ?? null,
    events: last?.events ?? [],
    toAct: position.toAct,
    finished: position.finished,
    matchScore: position.matchScore,
    table: position.table,
    seats: [],
  };
  const start = live.start;
  return { id: start.id, game: start.game, players: start.players, names: start.names, deck: start.deck, handStarts: [], scores: [], frames: [frame] };
}

/**
 * @param {Live} live
 * @returns {HTMLElement}
 */
function drawLive(live) {
  const match = matchOf(live);
  const frame = match.frames[0];
  const panel = h("article", "live-table");
  panel.dataset["id"] = live.start.id;
  panel.dataset["ply"] = String(frame?.ply ?? 0);
  const who = live.start.entrants.join(" vs ");
  panel.append(h("h3", "", `${live.start.id}: ${live.start.game}, ${who}`));
  const where = frame?.finished ? "match over" : `seat ${frame?.toAct} to act`;
  const score = frame?.matchScore.join(" – ") ?? "";
  panel.append(h("p", "where", `move ${frame?.ply ?? 0} · hand ${frame?.hand ?? 1} · ${where} · score ${score}`));
  panel.append(drawTable(match, 0, "all"));
  if (live.log.length) {
    const list = h("ol", "log");
    for (const line of live.log.slice(-6)) list.append(h("li", "", line));
    panel.append(list);
  }
  const reveal = live.reveal;
  if (reveal !== null) {
    const details = h("details", "reveal");
    details.append(h("summary", "", `Shown: ${reveal.reason} (position after move ${reveal.ply})`));
    /** @type {Match} */
    const shown = { ...match, frames: [{ .../** @type {Frame} */ (match.frames[0]), table: reveal.table, ply: reveal.ply }] };
    details.append(drawTable(shown, 0, "all"));
    if (reveal.dealt !== undefined) {
      reveal.dealt.forEach((hand, seat) => {
        const row = h("div", "cards");
        for (const code of hand) row.append(cardFace(code, match.deck));
        details.append(h("div", "dealt", h("span", "", `seat ${seat} was dealt `), row));
      });
    }
    panel.append(details);
  }
  return panel;
}

/**
 * @param {number} x
 * @returns {string}
 */
function percent(x) {
  return `${(x * 100).toFixed(1)}%`;
}

/**
 * @param {number} x
 * @returns {string}
 */
function signed(x) {
  const r = Math.round(x);
  return r > 0 ? `+${r}` : `${r}`;
}

/** @returns {HTMLElement} */
function drawStandings() {
  const table = h("table", "standings");
  const elo = state.standings.some((r) => r.elo !== undefined);
  const head = h("tr", "");
  for (const name of ["#", "entrant", "matches", "win rate [95% CI]", ...(elo ? ["Elo [95% CI]"] : []), "OpenSkill μ ± σ", "faults"]) head.append(h("th", "", name));
  table.append(h("thead", "", head));
  const body = h("tbody", "");
  state.standings.forEach((row, i) => {
    const tr = h("tr", "");
    tr.dataset["name"] = row.name;
    const [lo, hi] = row.win_rate_ci;
    const cells = [String(i + 1), row.name, String(row.matches), `${percent(row.win_rate)} [${percent(lo)}, ${percent(hi)}]`];
    if (elo) cells.push(row.elo ? `${signed(row.elo.elo)} [${signed(row.elo.ci[0])}, ${signed(row.elo.ci[1])}]` : "");
    cells.push(`${row.openskill.mu.toFixed(1)} ± ${row.openskill.sigma.toFixed(1)}`, String(row.faults));
    for (const cell of cells) tr.append(h("td", "", cell));
    body.append(tr);
  });
  table.append(body);
  return table;
}

const SVG = "http://www.w3.org/2000/svg";
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 4", "10 4"];
const COLOURS = ["#1b6ca8", "#c0392b", "#2e7d32", "#8e44ad", "#b9770e", "#34495e"];

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElementTagNameMap[K]}
 */
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** OpenSkill μ of each entrant as matches finish, with its ±σ band. Lines differ by
 * dash and carry their names: colour is never the only signal.
 * @returns {SVGSVGElement} */
function drawChart() {
  const W = 640;
  const H = 240;
  const pad = { l: 40, r: 110, t: 12, b: 28 };
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart" });
  chart.append(svg("title", {}));
  /** @type {SVGTitleElement} */ (chart.firstChild).textContent = "OpenSkill rating of each entrant as matches finish";
  const points = state.chart;
  const names = [...new Set(points.flatMap((p) => Object.keys(p.ratings)))];
  if (points.length === 0) {
    const text = svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle" });
    text.textContent = "the ratings appear as matches finish";
    chart.append(text);
    return chart;
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) for (const [mu, sigma] of Object.values(p.ratings)) {
    lo = Math.min(lo, mu - sigma);
    hi = Math.max(hi, mu + sigma);
  }
  const maxX = Math.max(state.progress.total, points[points.length - 1]?.matches ?? 1, 1);
  const x = (/** @type {number} */ m) => pad.l + (m / maxX) * (W - pad.l - pad.r);
  const y = (/** @type {number} */ v) => pad.t + (1 - (v - lo) / Math.max(hi - lo, 1e-9)) * (H - pad.t - pad.b);
  chart.append(svg("line", { x1: pad.l, y1: H - pad.b, x2: W - pad.r, y2: H - pad.b, stroke: "#555" }));
  chart.append(svg("line", { x1: pad.l, y1: pad.t, x2: pad.l, y2: H - pad.b, stroke: "#555" }));
  for (const [value, anchor] of /** @type {const} */ ([[lo, H - pad.b], [hi, pad.t + 10]])) {
    const label = svg("text", { x: 4, y: anchor, class: "axis" });
    label.textContent = value.toFixed(0);
    chart.append(label);
  }
  const xLabel = svg("text", { x: (W - pad.r + pad.l) / 2, y: H - 6, "text-anchor": "middle", class: "axis" });
  xLabel.textContent = `matches finished (of ${maxX}); μ, band μ ± σ`;
  chart.append(xLabel);
  names.forEach((name, i) => {
    const series = points.filter((p) => p.ratings[name] !== undefined).map((p) => /** @type {const} */ ([p.matches, .../** @type {[number, number]} */ (p.ratings[name])]));
    const colour = /** @type {string} */ (COLOURS[i % COLOURS.length]);
    const upper = series.map(([m, mu, s]) => `${x(m).toFixed(1)},${y(mu + s).toFixed(1)}`);
    const lower = series.map(([m, mu, s]) => `${x(m).toFixed(1)},${y(mu - s).toFixed(1)}`).reverse();
    chart.append(svg("polygon", { points: [...upper, ...lower].join(" "), fill: colour, "fill-opacity": 0.12, stroke: "none" }));
    const line = series.map(([m, mu]) => `${x(m).toFixed(1)},${y(mu).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points: line, fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": /** @type {string} */ (DASHES[i % DASHES.length]), "data-name": name }));
    const end = series[series.length - 1];
    if (end !== undefined) {
      const label = svg("text", { x: x(end[0]) + 6, y: y(end[1]) + 4, fill: colour, class: "series" });
      label.textContent = `${name} ${end[1].toFixed(1)}`;
      chart.append(label);
    }
  });
  return chart;
}

/** @returns {void} */
function render() {
  byId("title").textContent = state.title ? `Live: ${state.title}` : "Live";
  const { done, total } = state.progress;
  /** @type {HTMLProgressElement} */
  const bar = byId("progress");
  bar.max = Math.max(total, 1);
  bar.value = done;
  byId("progress-text").textContent = `${done} of ${total} matches` + (state.over ? " · the event is over" : ` · ${state.tables.size} in play`);
  byId("privacy").textContent =
    state.privacy ?? (state.revealAfter === null
      ? "Tables show public information only; hands are shown when each hand is over."
      : `Tables show public information; every position is shown in full ${state.revealAfter} moves late (--ui-delay).`);
  document.body.dataset["done"] = String(done);
  if (dirty.standings || dirty.all) {
    byId("standings").replaceChildren(drawStandings());
    byId("chart").replaceChildren(drawChart());
    const faults = h("ul", "faults");
    for (const f of state.faults.slice(-20).reverse()) faults.append(h("li", "", `${f.id} move ${f.ply}: seat ${f.seat} ${f.class}`));
    if (state.faults.length === 0) faults.append(h("li", "", "no faults"));
    byId("faults").replaceChildren(faults);
  }
  const tables = byId("tables");
  if (dirty.all) {
    tables.replaceChildren(...[...state.tables.values()].map(drawLive));
    if (state.tables.size === 0) tables.append(h("p", "empty", state.over ? "No table in play: the event is over." : "No table in play yet."));
    const list = h("ul", "finished");
    for (const end of state.finished.slice(-50).reverse()) {
      const link = h("a", "", end.id);
      link.href = `/viewer/?match=${encodeURIComponent(end.id)}`;
      const won = end.winners.length ? `${end.winners.join(", ")} won` : "drawn";
      const forfeit = end.forfeit ? ` (forfeit by ${end.forfeit.entrant})` : "";
      list.append(h("li", "", link, `: ${won}${forfeit}; totals ${end.totals.join(" – ")}; ${end.moves} moves, ${end.faults} faults`));
    }
    byId("finished").replaceChildren(list);
  } else {
    for (const id of dirty.tables) {
      const live = state.tables.get(id);
      const old = tables.querySelector(`article[data-id="${CSS.escape(id)}"]`);
      if (live === undefined) old?.remove();
      else if (old !== null) old.replaceWith(drawLive(live));
      else {
        tables.querySelector("p.empty")?.remove();
        tables.append(drawLive(live));
      }
    }
  }
  dirty.tables.clear();
  dirty.all = false;
  dirty.standings = false;
}

const source = new EventSource("events");
source.onmessage = (/** @type {MessageEvent<string>} */ event) => receive(event.data);
source.onerror = () => {
  byId("connection").textContent = state.over ? "the event is over; the server has stopped" : "connection lost: reconnecting…";
};
source.onopen = () => {
  byId("connection").textContent = "connected";
};
