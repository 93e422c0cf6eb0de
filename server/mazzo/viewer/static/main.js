// The player: holds one match's frames and an index, and redraws the board when either
// changes. Records come from `mazzo view`'s list, or from a file opened in the page and
// posted one match at a time to /viewer/frames (the service's REST port).

import { drawLog, drawScores, drawTable } from "./board.js";
/** @import { Perspective } from "./board.js" */
/** @import { Match, RecordLine } from "./types.js" */

/**
 * @typedef {object} Player
 * @property {Match | null} match
 * @property {number} index
 * @property {Perspective} perspective
 * @property {number | null} timer
 */

/** @type {Player} */
const player = { match: null, index: 0, perspective: "all", timer: null };

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

/** @type {HTMLParagraphElement} */
const status = byId("status");
/** @type {HTMLSelectElement} */
const picker = byId("match");
/** @type {HTMLInputElement} */
const fileInput = byId("file");
/** @type {HTMLInputElement} */
const slider = byId("slider");
/** @type {HTMLInputElement} */
const moveBox = byId("move");
/** @type {HTMLSelectElement} */
const speed = byId("speed");
/** @type {HTMLSelectElement} */
const seatPicker = byId("perspective");
/** @type {HTMLButtonElement} */
const playButton = byId("play");

/**
 * Lines of the opened file, when records come from a file opened in the page.
 * @type {string[]}
 */
let fileLines = [];

/**
 * @param {string} text
 * @returns {void}
 */
function say(text) {
  status.textContent = text;
}

/** @returns {void} */
function draw() {
  const match = player.match;
  if (match === null) return;
  const last = match.frames.length - 1;
  player.index = Math.max(0, Math.min(player.index, last));
  const frame = match.frames[player.index];
  byId("board").replaceChildren(drawTable(match, player.index, player.perspective));
  byId("scores").replaceChildren(drawScores(match, player.index));
  const log = drawLog(match, player.index);
  byId("log").replaceChildren(log);
  log.lastElementChild?.scrollIntoView({ block: "nearest" });
  slider.max = String(last);
  slider.value = String(player.index);
  moveBox.max = String(last);
  moveBox.value = String(player.index);
  const where = frame?.finished ? "match over" : `seat ${frame?.toAct} to act`;
  const moved = frame?.move ? ` · seat ${frame.seat}: ${frame.move}` : " · the deal";
  byId("where").textContent = `move ${player.index} of ${last} · hand ${frame?.hand}${moved} · ${where}`;
  document.body.dataset["index"] = String(player.index);
}

/**
 * @param {number} index
 * @returns {void}
 */
function go(index) {
  player.index = index;
  draw();
}

/**
 * @param {1 | -1} direction
 * @returns {void}
 */
function handStep(direction) {
  const match = player.match;
  if (match === null) return;
  const starts = match.handStarts;
  if (direction > 0) {
    const next = starts.find((s) => s > player.index);
    go(next ?? match.frames.length - 1);
  } else {
    const earlier = starts.filter((s) => s < player.index);
    go(earlier.length ? (earlier[earlier.length - 1] ?? 0) : 0);
  }
}

/** @returns {void} */
function stop() {
  if (player.timer !== null) window.clearInterval(player.timer);
  player.timer = null;
  playButton.textContent = "Play";
  playButton.setAttribute("aria-pressed", "false");
}

/** @returns {void} */
function play() {
  if (player.timer !== null) return stop();
  const match = player.match;
  if (match === null) return;
  if (player.index >= match.frames.length - 1) go(0);
  playButton.textContent = "Pause";
  playButton.setAttribute("aria-pressed", "true");
  player.timer = window.setInterval(() => {
    if (player.match === null || player.index >= player.match.frames.length - 1) return stop();
    go(player.index + 1);
  }, Number(speed.value));
}

/**
 * @param {Match} match
 * @returns {void}
 */
function show(match) {
  stop();
  player.match = match;
  player.index = 0;
  player.perspective = "all";
  seatPicker.replaceChildren(new Option("everything", "all"));
  match.frames[0]?.seats.forEach((table, s) => {
    if (table !== null) seatPicker.append(new Option(`what seat ${s} saw`, String(s)));
  });
  document.body.dataset["game"] = match.game;
  say(`${match.id}: ${match.game}, ${match.players} players, ${match.frames.length - 1} moves`);
  draw();
}

/** Counts loads begun: an answer to any but the latest is dropped, so a slow answer for
 * an earlier choice (or the page's own first load) never replaces a later choice. */
let loads = 0;

/**
 * @param {Promise<Response>} response
 * @returns {Promise<void>}
 */
async function loadFrames(response) {
  const load = ++loads;
  say("loading…");
  /** @type {Response} */
  let reply;
  /** @type {unknown} */
  let body;
  try {
    reply = await response;
    body = await reply.json();
  } catch (error) {
    if (load === loads) say(`could not load the match: ${String(error)}`);
    return;
  }
  if (load !== loads) return;
  if (!reply.ok) {
    const message = /** @type {{ message?: string }} */ (body).message ?? reply.statusText;
    say(`refused: ${message}`);
    return;
  }
  show(/** @type {Match} */ (body));
}

/**
 * @param {string} line
 * @returns {Promise<void>}
 */
function postRecord(line) {
  return loadFrames(fetch("frames", { method: "POST", headers: { "content-type": "application/json" }, body: line }));
}

/**
 * @param {RecordLine[]} lines
 * @returns {void}
 */
function listMatches(lines) {
  picker.replaceChildren(new Option("choose a match", ""));
  for (const line of lines) {
    const text = `${line.id}: ${line.game} ${line.players}p, ${line.moves} moves`;
    picker.append(new Option(text, String(line.index)));
  }
  picker.disabled = lines.length === 0;
}

/** Counts files opened (the served file's list at load, then files opened in the page):
 * a list that arrives after a later one was opened is dropped. */
let opens = 0;

/** @returns {Promise<void>} */
async function openServerFile() {
  const open = ++opens;
  const reply = await fetch("records");
  const body = /** @type {{ file: string | null; records: RecordLine[] }} */ (await reply.json());
  if (open !== opens) return; // a file opened in the page meanwhile
  if (body.file === null) return; // the service, not `mazzo view`: open a file in the page
  fileLines = [];
  listMatches(body.records);
  say(`${body.file}: ${body.records.length} matches`);
  // ?match=ID (a link from the live page): that match, else the first
  const wanted = new URLSearchParams(window.location.search).get("match");
  const first = body.records.find((r) => r.id === wanted) ?? body.records[0];
  if (first !== undefined) {
    picker.value = String(first.index);
    await loadFrames(fetch(`records/${first.index}`));
  }
}

/**
 * @param {File} file
 * @returns {Promise<void>}
 */
async function openLocalFile(file) {
  const open = ++opens;
  const text = await file.text();
  if (open !== opens) return;
  fileLines = text.split("\n").filter((line) => line.trim() !== "");
  /** @type {RecordLine[]} */
  const lines = [];
  fileLines.forEach((line, index) => {
    try {
      const record = /** @type {Record<string, unknown>} */ (JSON.parse(line));
      const moves = Array.isArray(record["moves"]) ? record["moves"].length : 0;
      lines.push({
        index,
        id: String(record["id"] ?? index),
        game: String(record["game"] ?? "?"),
        players: Number(record["players"] ?? 0),
        moves,
        winners: [],
      });
    } catch {
      lines.push({ index, id: `line ${index + 1} (not JSON)`, game: "?", players: 0, moves: 0, winners: [] });
    }
  });
  listMatches(lines);
  say(`${file.name}: ${lines.length} matches`);
  const first = fileLines[0];
  if (first !== undefined) await postRecord(first);
}

picker.addEventListener("change", () => {
  const index = Number(picker.value);
  if (picker.value === "") return;
  const line = fileLines[index];
  void (line !== undefined ? postRecord(line) : loadFrames(fetch(`records/${index}`)));
});
fileInput.addEventListener("change", () => {
  const file = fileInput.files?.[0];
  if (file !== undefined) void openLocalFile(file);
});
slider.addEventListener("input", () => go(Number(slider.value)));
moveBox.addEventListener("change", () => go(Number(moveBox.value)));
seatPicker.addEventListener("change", () => {
  player.perspective = seatPicker.value === "all" ? "all" : Number(seatPicker.value);
  draw();
});
speed.addEventListener("change", () => {
  if (player.timer !== null) {
    stop();
    play();
  }
});
byId("first").addEventListener("click", () => go(0));
byId("hand-back").addEventListener("click", () => handStep(-1));
byId("back").addEventListener("click", () => go(player.index - 1));
playButton.addEventListener("click", play);
byId("next").addEventListener("click", () => go(player.index + 1));
byId("hand-next").addEventListener("click", () => handStep(1));
byId("last").addEventListener("click", () => go(Number.MAX_SAFE_INTEGER));

document.addEventListener("keydown", (event) => {
  const target = /** @type {HTMLElement | null} */ (event.target);
  if (target?.tagName === "INPUT" && /** @type {HTMLInputElement} */ (target).type !== "range") return;
  if (target?.tagName === "SELECT") return;
  /** @type {Record<string, () => void>} */
  const keys = {
    ArrowRight: () => go(player.index + 1),
    ArrowLeft: () => go(player.index - 1),
    ArrowDown: () => handStep(1),
    ArrowUp: () => handStep(-1),
    PageDown: () => handStep(1),
    PageUp: () => handStep(-1),
    Home: () => go(0),
    End: () => go(Number.MAX_SAFE_INTEGER),
    " ": play,
  };
  const action = keys[event.key];
  if (action !== undefined) {
    event.preventDefault();
    action();
  }
});

/** For tests and scripts: the player's state. */
/** @type {{ mazzoViewer: unknown }} */ (/** @type {unknown} */ (window)).mazzoViewer = {
  go,
  frames: () => player.match?.frames.length ?? 0,
  index: () => player.index,
  perspective: (/** @type {Perspective} */ p) => {
    player.perspective = p;
    seatPicker.value = String(p);
    draw();
  },
  post: postRecord,
};

void openServerFile();
