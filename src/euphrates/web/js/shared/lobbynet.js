// The lobby's WebSocket (docs/server.md, The lobby): the open tables, the account's
// own games with who sits where, where it stands in quick match (the table it waits
// for, or the one made for it), and its friends and
// invitations (shared/friends.js), sent again by
// the server whenever they change, on any of its processes. While it is open, the account counts as online.
// Reconnects by itself, waiting longer after each failure.

import { parseJson } from "./json.js";

/**
 * A seat as the lobby lists it.
 * @typedef {object} TableSeat
 * @property {number} seat
 * @property {"human"|"bot"} kind
 * @property {string|null} level
 * @property {string|null} name
 * @property {boolean} taken
 * @property {number|null} [rating] the seated player's shown rating in the game and size
 * @property {"here"|"online"|"away"|null} presence
 * @property {boolean} you
 * @property {boolean} creator
 */

/**
 * An open table, or one of the account's games.
 * @typedef {object} TableEntry
 * @property {string} id
 * @property {"board"|"cards"} game
 * @property {number} players
 * @property {string} status
 * @property {Record<string, boolean>} options
 * @property {{mode: string, preset?: string|null, bank?: number|null, increment?: number|null, days?: number|null}|null} clock
 * @property {string} created
 * @property {string|null} creator
 * @property {boolean} rated
 * @property {TableSeat[]} seats
 * @property {number[]} free
 * @property {string} link
 */

/**
 * Where the account stands in quick match (docs/server.md, Quick match).
 * @typedef {object} QuickMatchState
 * @property {"idle"|"waiting"|"matched"} state
 * @property {"board"|"cards"} [game]
 * @property {number} [players] the table's players
 * @property {string} [clock] a real-time preset, or "turn:<days>"
 * @property {Record<string, boolean>} [options] the game's options as asked
 * @property {number} [rating]
 * @property {number} [waited] seconds waited when the server said so
 * @property {number|null} [window]
 * @property {{start: number, step: number, every: number, any_after: number}} [rule]
 * @property {number} [alike] how many wait for the same table, this account included
 * @property {{id: string, link: string, opponent: string|null, opponents?: string[]}} [match]
 */

/**
 * The account's friends (docs/server.md, Friends): whom it follows, with presence and
 * the games one may watch, and the invitations to a seat it received and made.
 * @typedef {object} FriendsState
 * @property {{name: string, online: boolean, since: string, games: {id: string, game: "board"|"cards", players: number, status: string, rated: boolean, link: string}[]}[]} players
 * @property {{id: string, host: string, game: "board"|"cards", players: number, seat: number, rated: boolean, open: boolean, clock: TableEntry["clock"], link: string, created: string}[]} received
 * @property {{id: string, name: string, game: "board"|"cards", players: number, seat: number, link: string, created: string}[]} sent
 */

export class LobbySocket {
  /** @param {() => void} changed called whenever the tables or the games change */
  constructor(changed) {
    this.changed = changed;
    /** @type {TableEntry[]} */
    this.tables = [];
    /** @type {TableEntry[]} */
    this.games = [];
    /** @type {QuickMatchState|null} null until the server said (signed in) */
    this.quickmatch = null;
    /** When the quick match state came (performance.now()), to count the wait on. */
    this.quickmatchAt = 0;
    /** @type {FriendsState|null} null until the server said (signed in) */
    this.friends = null;
    /** @type {import("./tournaments.js").TournamentListed[]|null} null until the server said */
    this.tournaments = null;
    /** @type {{tournament: string, name: string, round: number, id: string, link: string}|null} */
    this.tournamentGame = null;
    /** @type {string[]} the tournaments the server said changed last (their pages read them again) */
    this.tournamentsChanged = [];
    /** Whether the list is the server's yet (the first message came). */
    this.ready = false;
    this.retry = 0;
    /** @type {WebSocket|null} */
    this.ws = null;
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/api/lobby/ws`);
    this.ws = ws;
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = parseJson(String(ev.data));
      } catch {
        return;
      }
      if (msg.type === "tables") {
        this.tables = msg.tables ?? [];
        this.ready = true;
        this.retry = 0;
      } else if (msg.type === "mine") {
        this.games = msg.games ?? [];
      } else if (msg.type === "quickmatch") {
        this.quickmatch = msg.quickmatch ?? null;
        this.quickmatchAt = performance.now();
      } else if (msg.type === "friends") {
        this.friends = msg.friends ?? null;
      } else if (msg.type === "tournaments") {
        this.tournaments = msg.tournaments ?? [];
      } else if (msg.type === "tournament_game") {
        this.tournamentGame = msg;
      } else if (msg.type === "tournament") {
        this.tournamentsChanged = msg.changed ?? [];
      } else if (msg.type === "closed" && msg.code === "account_changed") {
        // The account was disabled or deleted: the page starts again as what it is now.
        location.reload();
        return;
      } else {
        return;
      }
      this.changed();
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      setTimeout(() => this.connect(), Math.min(15000, 1000 * 2 ** this.retry++));
    });
  }

  /** Signed in or out: the server tells a new connection what this account may see. */
  restart() {
    const ws = this.ws;
    this.ws = null;
    this.games = [];
    this.quickmatch = null;
    this.friends = null;
    ws?.close();
    this.connect();
  }
}
