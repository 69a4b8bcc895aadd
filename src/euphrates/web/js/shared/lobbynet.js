// The lobby's WebSocket (docs/server.md, The lobby): the open tables, the account's
// own games with who sits where, and where it stands in quick match, sent again by
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
 * @property {number} [rating]
 * @property {number} [waited] seconds waited when the server said so
 * @property {number|null} [window]
 * @property {{start: number, step: number, every: number, any_after: number}} [rule]
 * @property {{id: string, link: string, opponent: string|null}} [match]
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
    ws?.close();
    this.connect();
  }
}
