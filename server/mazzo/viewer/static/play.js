// A person's seat (`mazzo match --bot human`): the page speaks the gateway's HTTP door
// like any dial-in bot (POST /v1/tables:join, a stream of decisions; POST
// /v1/tables:answer, the index of the move chosen) and follows its seat's feed (POST
// /play/feed: the seat's table after every move, the moves in words). No rule of any
// game is here: a decision is drawn by the server (POST /play/draw: the seat's table
// from its GetView, the legal moves in words), and the page only draws what it gets.
// The token comes in the address's fragment (#token=...), which no server ever sees, or,
// without one (the arena's page: a token is never put in an address), typed into the
// page's form; it is then sent only in request bodies and headers.
// Watching (#token=...&watch, or the form's "Watch its seat"): the page follows the
// seat's feed only and never joins, so the bot program that holds the seat keeps it;
// its owner sees what the bot sees, as it plays.

import { drawTable } from "./board.js";
import { cardFace } from "./cards.js";
import { drawPicking } from "./rummy.js";
import { renderForm, renderFormMoves } from "./play_maraffa.js";
/** @import { MaraffaForm, MovePart } from "./play_maraffa.js" */
/** @import { Deck, Frame, Match, Table } from "./types.js" */
/** @import { Meld } from "./rummy.js" */

/**
 * @typedef {object} LegalMove
 * @property {string} text The move in words ("plays the 3 of denari").
 * @property {string | null} card The card, when the move is that card and nothing else.
 * @property {string} [kind] Burraco, Ramino: the move's kind; the cards of the hand it uses; the meld it goes onto (rummy.js).
 * @property {string[]} [uses]
 * @property {number | null} [onto]
 * @property {MovePart | null} [part] A label to group it by (Maraffa's bids, trumps: play_maraffa.js).
 */

/**
 * What the server draws of a decision (POST /play/draw).
 * @typedef {object} Drawn
 * @property {string} game
 * @property {number} seat
 * @property {number} players
 * @property {Deck} deck
 * @property {Table} table
 * @property {number[]} matchScore
 * @property {LegalMove[]} moves
 * @property {MaraffaForm | null} [form] The game's form besides the table (play_maraffa.js).
 * @property {number} timeLeft
 * @property {boolean} [picking] The moves are built by picking cards (Burraco, Ramino: rummy.js).
 * @property {Meld[]} [melds] The melds on the table, lay-off targets.
 * @property {string[]} [notes] Beside the cards to pick, in words (Burraco's pozzetti).
 */

/**
 * A decision of the dial-in protocol (proto JSON: 64-bit numbers are strings).
 * @typedef {object} Decision
 * @property {string} sequence
 * @property {string} [matchId]
 * @property {{ seat?: number }} request The ActRequest: sent back to be drawn, as it came.
 * @property {{ moveTimeLeft?: string; bankLeft?: string }} [clock] Durations as proto JSON writes them ("299.5s").
 */

/**
 * @typedef {object} Side
 * @property {string} entrant
 * @property {number[]} seats
 */

/**
 * The seat's feed, after the deal and after each move (POST /play/feed).
 * @typedef {object} SeatMessage
 * @property {"deal" | "move"} type
 * @property {string} id
 * @property {number} ply
 * @property {number} seat The seat whose table this is (the one about to act, of a person's seats).
 * @property {number[]} seats Every seat the person plays that sees for itself.
 * @property {number[]} [plays] Every seat the person moves for (a dummy's too).
 * @property {string[]} names
 * @property {Side[]} sides
 * @property {Deck} deck
 * @property {boolean} finished
 * @property {number[]} matchScore
 * @property {Table} table
 * @property {MaraffaForm | null} [form]
 * @property {number} [by]
 * @property {string} [move]
 * @property {string | null} [fault]
 * @property {string[]} [events]
 */

/**
 * @typedef {object} EndMessage
 * @property {"end"} type
 * @property {string} id
 * @property {number[]} winners
 * @property {number[]} totals
 * @property {string | null} forfeit
 * @property {string[]} names
 * @property {Side[]} sides
 * @property {Deck} deck
 * @property {Table} table
 */

/** @typedef {SeatMessage | EndMessage} FeedMessage */

/**
 * What the page got, for tests (every line as received) and people curious.
 * `latencies`: milliseconds from the click (or key) that chose a move to the next
 * decision drawn on the page (the answer sent, the others' moves, the drawing request);
 * `splits`, the same time in parts: to the decision's arrival, its drawing request,
 * its rendering. `joins`: the page's dials.
 * @type {{ decisions: string[]; feed: string[]; answers: number; shown: number; latencies: number[]; splits: number[][]; joins: number }}
 */
const received = { decisions: [], feed: [], answers: 0, shown: 0, latencies: [], splits: [], joins: 0 };
/** When the last answer was sent (performance.now()), until the next decision is drawn. */
let answeredAt = /** @type {number | null} */ (null);
/** @type {Window & { mazzoPlay?: typeof received }} */ (window).mazzoPlay = received;

const fragment = new URLSearchParams(location.hash.slice(1));
let token = fragment.get("token") ?? "";
/** The page follows the seat's feed and never joins: the seat's own program plays. */
let watching = fragment.has("watch");
/** The seat's feed is followed: at once with a token from the address, else from the
 * first Welcome (the arena makes a page's feed once its token is known). */
let following = false;
/** @type {{ decision: Decision; drawn: Drawn; until: number; moveUntil: number } | null} */
let pending = null;
/** @type {FeedMessage | null} */
let latest = null;
/** @type {{ text: string; you: boolean; end: boolean }[]} */
let log = [];
let over = false;
let name = "";
let seat = /** @type {number | null} */ (null);
let note = "";

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
 * @param {string} id
 * @returns {HTMLElement}
 */
function byId(id) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found;
}

/**
 * Each JSON object of an NDJSON answer, as it comes; `{}` lines (heartbeats) skipped.
 * @param {Response} response
 * @param {(line: string) => void} onLine
 * @returns {Promise<void>}
 */
async function readLines(response, onLine) {
  if (response.body === null) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    rest += value;
    let end = rest.indexOf("\n");
    while (end >= 0) {
      const line = rest.slice(0, end).trim();
      rest = rest.slice(end + 1);
      if (line && line !== "{}") onLine(line);
      end = rest.indexOf("\n");
    }
  }
}

/**
 * The message of an error answer (google.rpc.Status JSON), or its HTTP status.
 * @param {Response} response
 * @returns {Promise<string>}
 */
async function why(response) {
  try {
    const body = /** @type {{ message?: string; reason?: string; refusal?: { reason?: string } }} */ (await response.json());
    return body.message ?? body.refusal?.reason ?? body.reason ?? `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

/**
 * POST JSON to the page's own server.
 * @param {string} path
 * @param {unknown} body
 * @param {boolean} signed With the seat's token.
 * @returns {Promise<Response>}
 */
function post(path, body, signed) {
  /** @type {Record<string, string>} */
  const headers = { "content-type": "application/json" };
  if (signed) headers["authorization"] = `Bearer ${token}`;
  return fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
}

// ------------------------------------------------------------------ the protocol

/** The join's state. `stream` numbers the streams, so a line of an older one is not
 * taken; `replaced`: another page of the seat took it (never dialed again); `grace`:
 * how long the gateway keeps the seat of a page gone (seconds, the Welcome says);
 * `tries`: dialed again since the last Welcome; `droppedAt`: when the stream dropped
 * (performance.now()), while dialing again. */
const link = { stream: 0, replaced: false, grace: 10, tries: 0, droppedAt: /** @type {number | null} */ (null) };

/** The decisions: join the table and read its messages until the stream ends. A drop
 * (the network, or the stream cut short) is dialed again after 0.5, 1, 2, 4 s (then
 * every 4 s) for as long as the grace keeps the seat: the gateway sends the pending
 * decision again with its sequence number, and applies an answer once. A stream that
 * another page of the seat replaced ends with the gateway's refusal of no decision
 * (its field `hello`): that page is not dialed again, or the two pages would take the
 * seat from each other in turn. */
async function join() {
  const mine = ++link.stream;
  received.joins += 1;
  let lost = "the connection dropped";
  let broke = false; // the stream failed (the network, the server gone), not ended
  try {
    const response = await post("/v1/tables:join", { hello: { token, protocolVersion: 1 } }, false);
    if (!response.ok) {
      const refused = await why(response);
      if (response.status !== 429 && response.status < 500) {
        note = `the table refused this page: ${refused}`;
        const sit = document.getElementById("sit");
        if (sit !== null && !following) sit.hidden = false; // a token typed: type it again
        link.droppedAt = null;
        setLink("lost");
        return;
      }
      lost = refused;
      broke = true;
    } else {
      await readLines(response, (line) => {
        if (mine !== link.stream) return;
        received.decisions.push(line);
        void onTableMessage(/** @type {Record<string, any>} */ (JSON.parse(line)));
      });
    }
  } catch (error) {
    lost = String(error);
    broke = true;
  }
  if (mine !== link.stream) return;
  if (over && !broke) {
    // The table ended the stream after the match (the run is over): closed, not lost.
    setLink("closed");
    return;
  }
  pending = null; // sent again, with its number, once back
  if (link.replaced) {
    setLink("replaced");
    return;
  }
  const now = performance.now();
  link.droppedAt ??= now;
  const wait = Math.min(4, 0.5 * 2 ** link.tries);
  link.tries += 1;
  if (now - link.droppedAt + wait * 1000 > link.grace * 1000) {
    // Between matches the seat is not at stake: the table (a tournament's, an
    // arena's) may simply have closed.
    note = over
      ? `the table closed after the match (${lost})`
      : `disconnected from the table (${lost}), and not back within the grace: reload the page to take the seat back`;
    setLink(over ? "closed" : "lost");
    return;
  }
  // A drop between a tournament's matches (the stream broken, not ended) is dialed
  // again as well, quietly: the next match may seat this page.
  if (!over) note = `reconnecting… (${lost})`;
  setLink("reconnecting");
  setTimeout(() => {
    if (mine === link.stream) void join();
  }, wait * 1000);
}

/**
 * The join's state on the page (`data-link`, for tests), and drawn.
 * @param {"up" | "reconnecting" | "replaced" | "lost" | "closed"} state
 */
function setLink(state) {
  document.body.dataset["link"] = state;
  render();
}

/**
 * @param {Record<string, any>} message
 * @returns {Promise<void>}
 */
async function onTableMessage(message) {
  if (message["welcome"]) {
    name = String(message["welcome"].name ?? "");
    note = "";
    link.grace = seconds(message["welcome"].grace) ?? link.grace;
    link.tries = 0;
    link.droppedAt = null;
    document.body.dataset["link"] = "up";
    if (!following) {
      following = true;
      void follow();
    }
  } else if (message["matchStarted"]) {
    over = false; // a tournament's next match, on the same page
    const seats = /** @type {number[]} */ (message["matchStarted"].seats ?? [0]);
    seat = seats[0] ?? 0;
  } else if (message["decision"]) {
    await decide(/** @type {Decision} */ (message["decision"]));
    return;
  } else if (message["refusal"] && !message["refusal"].sequence) {
    // Of no decision: the gateway's last line when another page took the seat.
    link.replaced = true;
    note = `another page took this seat (${message["refusal"].reason}): this one no longer plays; reload it to take the seat back`;
  } else if (message["refusal"]) {
    note = `refused: ${message["refusal"].reason}`;
  } else if (message["matchEnded"]) {
    over = true;
  }
  render();
}

/**
 * A decision: the server draws it, the page shows it and its moves.
 * @param {Decision} decision
 * @returns {Promise<void>}
 */
async function decide(decision) {
  const arrived = performance.now();
  /** @type {Response} */
  let response;
  try {
    response = await post("/play/draw", decision.request, true);
  } catch (error) {
    note = `this decision cannot be shown (${error})`;
    render();
    return;
  }
  if (!response.ok) {
    note = `this decision cannot be shown: ${await why(response)}`;
    render();
    return;
  }
  const drawn = /** @type {Drawn} */ (await response.json());
  seat = drawn.seat;
  const now = performance.now();
  const move = seconds(decision.clock?.moveTimeLeft) ?? drawn.timeLeft;
  pending = { decision, drawn, until: now + drawn.timeLeft * 1000, moveUntil: now + move * 1000 };
  render();
  const shown = performance.now();
  if (answeredAt !== null) {
    received.latencies.push(shown - answeredAt);
    received.splits.push([arrived - answeredAt, now - arrived, shown - now]);
  }
  answeredAt = null;
}

/**
 * Answer the pending decision with its move `index`.
 * @param {number} index
 * @returns {Promise<void>}
 */
async function choose(index) {
  if (pending === null || index < 0 || index >= pending.drawn.moves.length) return;
  const clicked = performance.now();
  const chosen = pending;
  const { decision } = chosen;
  pending = null;
  note = "";
  /** @type {Record<string, unknown>} */
  const answer = { sequence: decision.sequence, response: { index } };
  if (decision.matchId) answer["matchId"] = decision.matchId;
  answeredAt = clicked;
  const sent = post("/v1/tables:answer", { answer }, true); // the answer leaves first
  render();
  /** @type {Response} */
  let response;
  try {
    response = await sent;
  } catch (error) {
    pending = chosen; // not sent: choose again
    note = `the move could not be sent (${error})`;
    render();
    return;
  }
  received.answers += 1;
  if (!response.ok) {
    note = `the move was refused: ${await why(response)}`;
    render();
  }
}

/** The seat's feed: its table after every move, the moves in words. Followed again
 * after a drop (a few times, more slowly each time), from the match's beginning. */
async function follow(attempt = 1) {
  try {
    const response = await post("/play/feed", {}, true);
    if (!response.ok) {
      note = `no feed for this page: ${await why(response)}`;
      const sit = document.getElementById("sit");
      if (sit !== null && watching && !fragment.has("token")) sit.hidden = false; // type it again
      render();
      return;
    }
    log = []; // the feed starts from the match's beginning
    await readLines(response, (line) => {
      received.feed.push(line);
      onFeed(/** @type {FeedMessage} */ (JSON.parse(line)));
    });
  } catch {
    // the server is gone, or the network: tried again below while the match runs
  }
  if ((watching || !over) && attempt < 5) setTimeout(() => void follow(attempt + 1), 1000 * attempt);
}

/** Watch the seat: its feed only, no join (the seat stays its program's). */
function watch() {
  watching = true;
  following = true;
  document.body.dataset["link"] = "watching";
  render();
  void follow();
}

/**
 * @param {FeedMessage} message
 */
function onFeed(message) {
  latest = message;
  if (message.type !== "end" && pending === null) seat = message.seat;
  if (message.type === "deal" && over) {
    over = false; // a tournament's next match: its feed follows the last one's end
    log.push({ text: `match ${message.id} begins`, you: false, end: true });
  }
  if (message.type === "move") {
    const fault = message.fault ? ` [fault: ${message.fault}]` : "";
    // The events, less the one that only says the move again.
    const said = (message.events ?? []).filter((e) => e !== `seat ${message.by} ${message.move}`);
    const events = said.length ? ` (${said.join("; ")})` : "";
    const you = message.by !== undefined && (message.plays ?? message.seats).includes(message.by);
    const who = you ? `you (seat ${message.by})` : `seat ${message.by}`;
    log.push({ text: `${who} ${message.move ?? ""}${fault}${events}`, you, end: false });
  } else if (message.type === "end") {
    over = true;
    const won = message.winners.map((w) => message.sides[w]?.entrant ?? `side ${w}`);
    const forfeit = message.forfeit ? ` (forfeit: ${message.forfeit})` : "";
    log.push({ text: `the match is over: ${won.join(", ") || "nobody"} won${forfeit}`, you: false, end: true });
  }
  soon();
}

/** Whether the page has changed since it was last drawn. */
let dirty = false;

/** Draw the page at the next frame: the others' moves come in bursts (three bots answer
 * within milliseconds), and each drawing lays out the page; one drawing a frame keeps
 * the main thread free for the next decision (issue 35's latency). A hidden page, which
 * gets no frames, is drawn at once. */
function soon() {
  if (dirty) return;
  dirty = true;
  const run = () => {
    if (dirty) render();
  };
  if (document.hidden) setTimeout(run, 0);
  else requestAnimationFrame(run);
}

// ------------------------------------------------------------------ drawing

/**
 * A one-frame match for board.js, seen by `seat`.
 * @param {Table} table
 * @param {Deck} deck
 * @param {string[]} names
 * @param {number[]} score
 * @param {number} viewer
 * @returns {Match}
 */
function asMatch(table, deck, names, score, viewer) {
  /** @type {(Table | null)[]} */
  const seats = table.seats.map((s) => (s.seat === viewer ? table : null));
  /** @type {Frame} */
  const frame = {
    ply: 0,
    hand: 0,
    seat: null,
    move: null,
    fault: null,
    events: [],
    toAct: null,
    finished: over,
    matchScore: score,
    table,
    seats,
  };
  return { id: "", game: "", players: table.seats.length, names, deck, handStarts: [], scores: [], frames: [frame] };
}

/** @returns {{ table: Table; deck: Deck; names: string[]; score: number[] } | null} */
function shownTable() {
  if (pending !== null && latest?.type !== "end") {
    const { drawn } = pending;
    const names = latest?.names ?? drawn.table.seats.map((s) => `seat ${s.seat}`);
    return { table: drawn.table, deck: drawn.deck, names, score: drawn.matchScore };
  }
  if (latest === null) return null;
  const score = latest.type === "end" ? latest.totals : latest.matchScore;
  return { table: latest.table, deck: latest.deck, names: latest.names, score };
}

/** The moves as shown, in the order their keys (1-9) choose them: cards first. */
let order = /** @type {number[]} */ ([]);

/**
 * A move's button.
 * @param {LegalMove} move
 * @param {number} index
 * @param {Deck} deck
 * @param {string | null} face The card drawn on it (the move's card by default).
 * @returns {HTMLButtonElement}
 */
function moveButton(move, index, deck, face = move.card) {
  const button = h("button", face === null ? "move words" : "move");
  button.type = "button";
  button.dataset["index"] = String(index);
  const key = order.length < 9 ? order.length + 1 : null;
  order.push(index);
  button.setAttribute("aria-label", `${key === null ? "" : `${key}: `}${move.text}`);
  button.title = move.text;
  if (face !== null) {
    button.dataset["card"] = face;
    button.append(cardFace(face, deck));
  } else {
    button.append(h("span", "", move.text));
  }
  if (key !== null) button.append(h("span", "key", String(key)));
  button.addEventListener("click", () => void choose(index));
  return button;
}

function renderMoves() {
  const moves = byId("moves");
  if (pending !== null && pending.drawn.picking) {
    const { drawn, decision } = pending;
    order = drawPicking(moves, drawn, decision.sequence, (index) => void choose(index), renderMoves);
    return;
  }
  moves.replaceChildren();
  order = [];
  if (pending === null) {
    const text = watching
      ? "watching: the seat's program plays, this page does not"
      : over
        ? "the match is over"
        : latest === null
          ? "waiting for the deal"
          : "waiting for the others…";
    moves.append(h("p", "waiting", text));
    return;
  }
  const { drawn } = pending;
  const own = renderFormMoves(moves, drawn.moves, (i, face) => moveButton(drawn.moves[i] ?? { text: "", card: null }, i, drawn.deck, face), render);
  const indexed = drawn.moves.map((move, index) => ({ move, index })).filter(({ index }) => !own.has(index));
  const cards = indexed.filter(({ move }) => move.card !== null);
  const others = indexed.filter(({ move }) => move.card === null);
  if (cards.length) {
    const row = h("div", "hand-moves");
    for (const { move, index } of cards) row.append(moveButton(move, index, drawn.deck));
    moves.append(row);
  }
  if (others.length) {
    // With cards to play, the other moves (a card with a signal, a claim) wait folded.
    const box = h("details", "word-moves");
    box.open = !cards.length;
    box.append(h("summary", "", cards.length ? `other moves (${others.length})` : "your choices"));
    const list = h("div", "word-list");
    for (const { move, index } of others) list.append(moveButton(move, index, drawn.deck));
    box.append(list);
    moves.append(box);
  }
  const first = moves.querySelector("button");
  if (first !== null && !moves.contains(document.activeElement)) first.focus();
}

/**
 * @param {number[]} score
 * @param {Side[]} sides
 */
function renderScore(score, sides) {
  const wrap = byId("score");
  wrap.replaceChildren();
  if (!score.length) return;
  const table = h("table", "");
  table.append(h("thead", "", h("tr", "", h("th", "", "side"), h("th", "", "score"))));
  const body = h("tbody", "");
  score.forEach((points, s) => {
    const side = sides[s];
    const label = side ? `${side.entrant} (seats ${side.seats.join(", ")})` : `side ${s}`;
    const row = h("tr", "", h("td", "", label), h("td", "", String(points)));
    if (side && seat !== null && side.seats.includes(seat)) row.classList.add("you");
    body.append(row);
  });
  table.append(body);
  wrap.append(table);
}

/** The log as drawn: its lines (the array, replaced when the feed starts again) and how many. */
let logged = { lines: log, count: 0 };

/** The log's new lines only, appended (a match is some 250 lines). */
function renderLog() {
  const list = byId("log");
  if (logged.lines !== log || logged.count > log.length) {
    list.replaceChildren();
    logged = { lines: log, count: 0 };
  }
  if (logged.count === log.length) return;
  list.append(...log.slice(logged.count).map((line) => h("li", line.you ? "you" : line.end ? "end" : "", line.text)));
  logged.count = log.length;
  const wrap = byId("log-wrap");
  wrap.scrollTop = wrap.scrollHeight;
}

function render() {
  dirty = false;
  const shown = shownTable();
  const board = byId("board");
  if (shown === null) board.replaceChildren();
  else board.replaceChildren(drawTable(asMatch(shown.table, shown.deck, shown.names, shown.score, seat ?? -1), 0, seat ?? "all"));
  renderMoves();
  const form = pending !== null ? pending.drawn.form : latest?.type === "end" ? null : latest?.form;
  const mine = latest?.type === "end" ? [] : latest?.seats ?? (seat === null ? [] : [seat]);
  renderForm(byId("form"), form, mine, shown?.deck ?? "italian");
  renderScore(shown?.score ?? [], latest?.sides ?? []);
  renderLog();
  const who = watching ? `watching seat ${seat ?? "?"}` : name ? `${name}, seat ${seat ?? "?"}` : "your seat";
  byId("title").textContent = `Mazzo: ${who}`;
  let status = over ? "the match is over" : pending !== null ? "your move" : latest === null ? "waiting for the deal…" : watching ? "its program plays" : "waiting for the others…";
  if (note) status = `${note} · ${status}`;
  byId("status").textContent = status;
  tick();
  received.shown += 1;
  document.body.dataset["state"] = over ? "over" : pending !== null ? "deciding" : "waiting";
}

/**
 * A proto JSON duration ("299.5s") in seconds, or null.
 * @param {string | undefined} text
 * @returns {number | null}
 */
function seconds(text) {
  const found = /^(-?[0-9.]+)s$/.exec(text ?? "");
  return found ? Number(found[1]) : null;
}

/**
 * Seconds as m:ss.
 * @param {number} left
 * @returns {string}
 */
function minutes(left) {
  const whole = Math.max(0, Math.floor(left));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The pending move's clock, counted down on the page (the referee's clock decides):
 * the move's own time first, then the bank. */
function tick() {
  const clock = byId("clock");
  if (pending === null) {
    clock.textContent = "";
    return;
  }
  const now = performance.now();
  const all = (pending.until - now) / 1000;
  const move = Math.max(0, (pending.moveUntil - now) / 1000);
  clock.textContent = `time: ${minutes(move)} for this move, then ${minutes(all - move)} of bank`;
}
setInterval(tick, 1000);

// ------------------------------------------------------------------ keys

document.addEventListener("keydown", (event) => {
  if (pending === null || event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[1-9]$/.test(event.key)) {
    event.preventDefault();
    const index = order[Number(event.key) - 1];
    if (index !== undefined) void choose(index);
    return;
  }
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const buttons = [...byId("moves").querySelectorAll("button")].filter((b) => b.offsetParent !== null);
  if (!buttons.length) return;
  const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  const step = event.key === "ArrowRight" ? 1 : -1;
  const next = buttons[(at + step + buttons.length) % buttons.length];
  event.preventDefault();
  next?.focus();
});

if (!token) {
  // The arena's page: the person types their dial-in bot's token to take its seat.
  note = "this page needs its seat's token: type it below (or open the address mazzo match printed, …/play/#token=…)";
  /** @type {HTMLFormElement} */
  const sit = /** @type {HTMLFormElement} */ (byId("sit"));
  sit.hidden = false;
  /** The token typed (the field emptied, the form hidden), or false with none. */
  const typed = () => {
    const field = /** @type {HTMLInputElement} */ (byId("sit-token"));
    token = field.value.trim();
    field.value = "";
    if (!token) return false;
    sit.hidden = true;
    note = "";
    return true;
  };
  sit.addEventListener("submit", (event) => {
    event.preventDefault(); // never sent as a form: the token stays out of every address
    if (!typed()) return;
    render();
    void join();
  });
  byId("watch").addEventListener("click", () => {
    if (typed()) watch();
  });
  render();
} else if (watching) {
  watch();
} else {
  following = true;
  render();
  void join();
  void follow();
}
