// The shapes the server sends (server/mazzo/viewer/frames.py and tables.py). The page
// draws them as they are: every rule of every game stays in the engine.
//
// Types only, for the type check (tsc --checkJs, tools/viewer): the other scripts name
// them with `@import` in a comment, so the browser never loads this file.

/**
 * @typedef {object} Seat
 * @property {number} seat
 * @property {string[] | null} hand The cards, or null when they are not to be shown (then only `count`).
 * @property {number} count
 * @property {string[]} notes
 */

/**
 * @typedef {object} Area
 * @property {string} label
 * @property {string[]} cards
 * @property {(number | null)[] | null} by Who played each card (a trick), or null.
 * @property {number | null} count A face-down heap of this many cards, when `cards` is empty.
 * @property {string[]} [signals]
 */

/**
 * @typedef {object} Table
 * @property {Seat[]} seats
 * @property {Area[]} areas
 * @property {[string, string][]} facts
 */

/**
 * @typedef {object} Frame
 * @property {number} ply
 * @property {number} hand
 * @property {number | null} seat
 * @property {string | null} move
 * @property {string | null} [notation] The move in the engine's notation ("play 4C"); `move` is it in words.
 * @property {string | null} fault
 * @property {string[]} events
 * @property {number | null} toAct
 * @property {boolean} finished
 * @property {number[]} matchScore
 * @property {Table} table
 * @property {(Table | null)[]} seats What each seat saw (its GetView); null for a seat that decides nothing (a dummy).
 */

/**
 * @typedef {object} HandScore
 * @property {number} ply
 * @property {number} hand
 * @property {number[]} points
 * @property {number[]} totals
 */

/** @typedef {"italian" | "french"} Deck */

/**
 * @typedef {object} Match
 * @property {string} id
 * @property {string} game
 * @property {number} players
 * @property {string[]} names
 * @property {Deck} deck
 * @property {number[]} handStarts
 * @property {HandScore[]} scores
 * @property {Frame[]} frames
 */

/**
 * @typedef {object} RecordLine
 * @property {number} index
 * @property {string} id
 * @property {string} game
 * @property {number} players
 * @property {number} moves
 * @property {number[]} winners
 */

export {};
