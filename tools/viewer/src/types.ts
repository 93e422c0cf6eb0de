// The shapes the server sends (server/mazzo/viewer/frames.py and tables.py). The page
// draws them as they are: every rule of every game stays in the engine.

export interface Seat {
  seat: number;
  /** The cards, or null when they are not to be shown (then only `count`). */
  hand: string[] | null;
  count: number;
  notes: string[];
}

export interface Area {
  label: string;
  cards: string[];
  /** Who played each card (a trick), or null. */
  by: (number | null)[] | null;
  /** A face-down heap of this many cards, when `cards` is empty. */
  count: number | null;
  signals?: string[];
}

export interface Table {
  seats: Seat[];
  areas: Area[];
  facts: [string, string][];
}

export interface Frame {
  ply: number;
  hand: number;
  seat: number | null;
  move: string | null;
  /** The move in the engine's notation ("play 4C"); `move` is it in words. */
  notation?: string | null;
  fault: string | null;
  events: string[];
  toAct: number | null;
  finished: boolean;
  matchScore: number[];
  table: Table;
  /** What each seat saw (its GetView); null for a seat that decides nothing (a dummy). */
  seats: (Table | null)[];
}

export interface HandScore {
  ply: number;
  hand: number;
  points: number[];
  totals: number[];
}

export interface Match {
  id: string;
  game: string;
  players: number;
  names: string[];
  deck: "italian" | "french";
  handStarts: number[];
  scores: HandScore[];
  frames: Frame[];
}

export interface RecordLine {
  index: number;
  id: string;
  game: string;
  players: number;
  moves: number;
  winners: number[];
}
