// Shapes of what the server sends (docs/server.md, docs/board.md), for the type
// checker. Everything is read defensively: fields may be missing or added.
export {};

/**
 * @typedef {{seat: number, kind: "human"|"bot", level: string|null, name: string|null,
 *            taken: boolean, connected: boolean,
 *            presence?: "here"|"online"|"away"|null}} SeatMeta
 * @typedef {{id: string, game: "board"|"cards", players: number,
 *            options: Record<string, boolean>, status: string, version: number,
 *            seats: SeatMeta[], clock?: ClockMeta|null, open?: boolean,
 *            creator?: number|null, rated?: boolean,
 *            verdict?: "counted"|"repeat"|"voided"|null, result?: GameResult|null}} GameMeta
 * @typedef {{places: number[], left: {seat: number, kind: string}[],
 *            ratings: ({before: number, after: number}|null)[]}} GameResult
 *   an ended game's places as they count (those who left for good last), who left and
 *   how, each seat's rating change (docs/fair-play.md)
 * @typedef {{mode: "realtime"|"turn", seat: number|null, deadline: string|null,
 *            remaining_ms: number[], standin: (string|null)[], out_of_time: boolean[],
 *            now: string, level: string, forfeit?: (string|null)[], missed?: number[],
 *            paused?: (string|null)[], misses?: number|null, grace?: number|null}} ClockMeta
 *   `forfeit`: per seat, when a deserter's seat goes to a bot for good unless its player
 *   is back; `missed`: turn-based deadlines missed in a row; `paused`: until when a
 *   seat's player is on vacation
 * @typedef {{seat: number, kind: string, context: Record<string, any>}} Decision
 * @typedef {{kind: string, audience?: number, [key: string]: any}} GameEvent
 * @typedef {{version: number, kind: string, seat: number|null, events: GameEvent[], bot?: string}} Step
 * @typedef {{seq: number, seat: number|null, author: string, text: string, at: string}} ChatLine
 * @typedef {{version: number, kind: string, seat: number|null, level?: string, by?: number, at: string}} Note
 *   something that happened between versions: a clock ran out, a bot stood in (server/notes.py)
 * @typedef {{points: number[][], wildcards: number[][], totals: number[][],
 *            places: number[], winners: number[]}} Outcome
 * @typedef {Record<string, number>} ColourCounts
 * @typedef {{leaders: Record<string, string|null>, hand: Record<string, number>,
 *            catastrophes: number, points?: ColourCounts, treasures: number,
 *            discarded: Record<string, number>}} SeatView
 * @typedef {{tiles: Record<string, string[]>,
 *            monuments: {monument: string, square: string, colour: string}[],
 *            catastrophes: string[], treasures: string[], unification: string|null}} BoardPart
 * @typedef {{game: string, players: number, options: Record<string, boolean>,
 *            board: BoardPart, seats: SeatView[], bag: {count: number},
 *            removed: ColourCounts, score_log: [number, string, number, string][],
 *            turn: {first: number, active: number, actions_done: number},
 *            pending: Record<string, any>, viewer: number|null, version: number,
 *            decision: Decision|null, legal: string[], active: number,
 *            outcome: Outcome|null, not_seen?: ColourCounts}} BoardView
 * @typedef {{columns: number, rows: number, river: string[], temples: string[],
 *            bordered: string[]}} MapSide
 */

/**
 * What a game's table module gives the page (`js/table.js`).
 * @typedef {object} TableModule
 * @property {() => void} render the views or the game changed (it redraws in another language by itself)
 * @property {(step: Step) => void} step a new step arrived (before render)
 * @property {(line: ChatLine) => void} chat
 * @property {(online: boolean) => void} link
 */

/**
 * What the page gives a game's table module.
 * @typedef {object} TableHost
 * @property {HTMLElement} root where the module draws
 * @property {import("./net.js").Connection} conn
 * @property {string|null} hostToken
 */
