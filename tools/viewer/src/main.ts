// The player: holds one match's frames and an index, and redraws the board when either
// changes. Records come from `mazzo view`'s list, or from a file opened in the page and
// posted one match at a time to /viewer/frames (the service's REST port).

import { drawLog, drawScores, drawTable, type Perspective } from "./board.js";
import type { Match, RecordLine } from "./types.js";

interface Player {
  match: Match | null;
  index: number;
  perspective: Perspective;
  timer: number | null;
}

const player: Player = { match: null, index: 0, perspective: "all", timer: null };

function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node as T;
}

const status = byId<HTMLParagraphElement>("status");
const picker = byId<HTMLSelectElement>("match");
const fileInput = byId<HTMLInputElement>("file");
const slider = byId<HTMLInputElement>("slider");
const moveBox = byId<HTMLInputElement>("move");
const speed = byId<HTMLSelectElement>("speed");
const seatPicker = byId<HTMLSelectElement>("perspective");
const playButton = byId<HTMLButtonElement>("play");

/** Lines of the opened file, when records come from a file opened in the page. */
let fileLines: string[] = [];

function say(text: string): void {
  status.textContent = text;
}

function draw(): void {
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

function go(index: number): void {
  player.index = index;
  draw();
}

function handStep(direction: 1 | -1): void {
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

function stop(): void {
  if (player.timer !== null) window.clearInterval(player.timer);
  player.timer = null;
  playButton.textContent = "Play";
  playButton.setAttribute("aria-pressed", "false");
}

function play(): void {
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

function show(match: Match): void {
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

async function loadFrames(response: Promise<Response>): Promise<void> {
  const load = ++loads;
  say("loading…");
  let reply: Response;
  let body: unknown;
  try {
    reply = await response;
    body = await reply.json();
  } catch (error) {
    if (load === loads) say(`could not load the match: ${String(error)}`);
    return;
  }
  if (load !== loads) return;
  if (!reply.ok) {
    const message = (body as { message?: string }).message ?? reply.statusText;
    say(`refused: ${message}`);
    return;
  }
  show(body as Match);
}

function postRecord(line: string): Promise<void> {
  return loadFrames(fetch("frames", { method: "POST", headers: { "content-type": "application/json" }, body: line }));
}

function listMatches(lines: RecordLine[]): void {
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

async function openServerFile(): Promise<void> {
  const open = ++opens;
  const reply = await fetch("records");
  const body = (await reply.json()) as { file: string | null; records: RecordLine[] };
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

async function openLocalFile(file: File): Promise<void> {
  const open = ++opens;
  const text = await file.text();
  if (open !== opens) return;
  fileLines = text.split("\n").filter((line) => line.trim() !== "");
  const lines: RecordLine[] = [];
  fileLines.forEach((line, index) => {
    try {
      const record = JSON.parse(line) as Record<string, unknown>;
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
  const target = event.target as HTMLElement | null;
  if (target?.tagName === "INPUT" && (target as HTMLInputElement).type !== "range") return;
  if (target?.tagName === "SELECT") return;
  const keys: Record<string, () => void> = {
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
(window as unknown as { mazzoViewer: unknown }).mazzoViewer = {
  go,
  frames: () => player.match?.frames.length ?? 0,
  index: () => player.index,
  perspective: (p: Perspective) => {
    player.perspective = p;
    seatPicker.value = String(p);
    draw();
  },
  post: postRecord,
};

void openServerFile();
