// The WebSocket connection to one game (docs/server.md): hello with the seat
// tokens, views kept current by applying each update's patches, reconnects that
// resume from the last version seen, and requests answered by ack or error.

import { parseJson } from "./json.js";
import { applyPatch } from "./patch.js";

/** @typedef {import("./types.js").GameMeta} GameMeta */
/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./types.js").ChatLine} ChatLine */
/** @typedef {import("./types.js").Note} Note */

/**
 * @typedef {object} Listener
 * @property {(c: Connection, fresh: boolean) => void} onState  views or meta changed
 * @property {(step: Step) => void} onStep        a new step (action or undo)
 * @property {(line: ChatLine) => void} onChat
 * @property {(online: boolean) => void} onLink   connection up or down
 * @property {(code: string, message: string) => void} onClosed  closed for good
 */

export class Connection {
  /**
   * @param {string} gameId
   * @param {string[]} tokens seat and host tokens, from the link's fragment only
   * @param {string|null} name
   * @param {Listener} listener
   */
  constructor(gameId, tokens, name, listener) {
    this.gameId = gameId;
    this.tokens = tokens;
    this.name = name;
    this.listener = listener;
    /** @type {GameMeta|null} */
    this.game = null;
    /** @type {number[]} */
    this.seats = [];
    this.host = false;
    this.version = -1;
    /** @type {Record<string, any>} */
    this.views = {};
    /** For each seat held, whether the server would let it take its last action back. */
    /** @type {Record<string, boolean>} */
    this.canUndo = {};
    /** @type {Step[]} */
    this.history = [];
    /** @type {ChatLine[]} */
    this.chat = [];
    /** What happened between versions (a clock ran out, a bot stood in), in order. */
    /** @type {Note[]} */
    this.notes = [];
    /** @type {WebSocket|null} */
    this.ws = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (m: any) => void, reject: (e: ServerError) => void}>} */
    this.pending = new Map();
    this.closedForGood = false;
    this.retry = 0;
    /** Arrival time of the last update frame (performance.now()), for latency checks. */
    this.lastFrameAt = 0;
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      /** @type {Record<string, any>} */
      const hello = { type: "hello", tokens: this.tokens, history: true };
      if (this.name) hello.name = this.name;
      if (this.version >= 0) hello.version = this.version;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (ev) => {
      this.lastFrameAt = performance.now();
      let msg;
      try {
        msg = parseJson(String(ev.data));
      } catch {
        return;
      }
      this.receive(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.listener.onLink(false);
      for (const p of this.pending.values()) p.reject(new ServerError("offline", ""));
      this.pending.clear();
      if (this.closedForGood) return;
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    });
  }

  /** @param {any} msg */
  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.retry = 0;
        this.game = msg.game;
        this.seats = msg.you?.seats ?? [];
        this.host = Boolean(msg.you?.host);
        if (msg.notes) this.notes = msg.notes;
        this.listener.onLink(true);
        if (msg.views) {
          this.views = msg.views;
          this.version = msg.version;
          this.canUndo = msg.can_undo ?? {};
          if (msg.history) this.history = msg.history;
          if (msg.chat) this.chat = msg.chat;
          this.listener.onState(this, true);
        } else {
          this.listener.onState(this, false);
        }
        break;
      case "sync":
        this.game = msg.game ?? this.game;
        this.views = msg.views;
        this.version = msg.version;
        this.canUndo = msg.can_undo ?? {};
        if (msg.history) this.history = msg.history;
        if (msg.notes) this.notes = msg.notes;
        this.listener.onState(this, true);
        break;
      case "note":
        this.notes.push(msg.note);
        this.listener.onState(this, false);
        break;
      case "update":
        this.update(msg);
        break;
      case "game":
        this.game = msg.game;
        this.listener.onState(this, false);
        break;
      case "chat":
        if (!this.chat.some((c) => c.seq === msg.message.seq)) {
          this.chat.push(msg.message);
          this.listener.onChat(msg.message);
        }
        break;
      case "ack":
      case "pong":
        this.settle(msg.id, msg, null);
        break;
      case "error":
        if (msg.id !== null && msg.id !== undefined && this.pending.has(msg.id)) {
          this.settle(msg.id, null, new ServerError(msg.code, msg.message, msg.ruling));
        } else if (msg.code === "stale_version") {
          this.send({ type: "sync" });
        }
        break;
      case "closed":
        if (msg.code !== "too_slow") {
          this.closedForGood = true;
          this.listener.onClosed(msg.code, msg.message);
        }
        break;
      default:
        break;
    }
  }

  /** @param {any} msg */
  update(msg) {
    if (msg.version !== this.version + 1) {
      if (msg.version > this.version) this.send({ type: "sync" });
      return;
    }
    for (const [aud, part] of Object.entries(/** @type {Record<string, any>} */ (msg.views ?? {}))) {
      if (part.full) this.views[aud] = part.full;
      else if (part.patch && this.views[aud]) this.views[aud] = applyPatch(this.views[aud], part.patch);
    }
    this.version = msg.version;
    this.canUndo = msg.can_undo ?? {};
    if (this.game) {
      this.game.status = msg.status ?? this.game.status;
      this.game.version = msg.version;
      if (msg.clock !== undefined) this.game.clock = msg.clock;
    }
    /** @type {Step} */
    const step = { version: msg.version, kind: msg.kind, seat: msg.seat, events: msg.events ?? [], ...(msg.bot ? { bot: msg.bot } : {}) };
    this.history.push(step);
    this.listener.onStep(step);
    this.listener.onState(this, false);
  }

  /**
   * @param {number} id
   * @param {any} value
   * @param {ServerError|null} error
   */
  settle(id, value, error) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (error) p.reject(error);
    else p.resolve(value);
  }

  /**
   * Send a message; resolves with the ack, rejects with the server's error.
   * @param {Record<string, any>} msg
   * @returns {Promise<any>}
   */
  request(msg) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ServerError("offline", ""));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  /** @param {Record<string, any>} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ ...msg, id: this.nextId++ }));
    }
  }

  /**
   * @param {number} seat
   * @param {string} action
   */
  act(seat, action) {
    return this.request({ type: "action", version: this.version, seat, action });
  }

  /** @param {number} seat */
  undo(seat) {
    return this.request({ type: "undo", version: this.version, seat });
  }

  /** @param {string} text */
  say(text) {
    return this.request({ type: "chat", text });
  }

  close() {
    this.closedForGood = true;
    this.ws?.close();
  }
}

export class ServerError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {string|null} [ruling]
   */
  constructor(code, message, ruling = null) {
    super(message);
    this.code = code;
    this.ruling = ruling ?? null;
  }
}
