// The move log and the chat of a table, in two tabs. The log grows step by step; an
// undo, another perspective or another language rebuilds it. Each game brings its own
// words for a step (`stepEntry` of board/words.js or cards/words.js).

import { ChatPanel } from "./chat.js";
import { fill, h } from "./dom.js";
import { noteText } from "./fairplay.js";
import { currentLang, t } from "./i18n.js";

/** @typedef {import("./net.js").Connection} Connection */
/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./types.js").Note} Note */

/**
 * What a step's words are told: whose names, whose private events.
 * @typedef {object} LogNames
 * @property {(seat: number) => string} name
 * @property {number|null} perspective whose private events the log may show
 * @property {(version: number) => string|null} [declined] the decision a step answered with "no"
 * @property {boolean} [everything] every seat's private events (the replay of an ended game)
 */

/**
 * A game's words for one step of the log.
 * @typedef {(step: Step, names: LogNames, undone: boolean) => Node[]} StepEntry
 */

export class LogTabs {
  /**
   * @param {Connection} conn
   * @param {StepEntry} entry
   * @param {(seat: number) => string} name
   * @param {((version: number) => string|null)|null} declined where the game names a "no" (cards)
   * @param {(message: string) => void} say
   * @param {() => void} changed redraw (a tab was chosen)
   */
  constructor(conn, entry, name, declined, say, changed) {
    this.conn = conn;
    this.entry = entry;
    this.name = name;
    this.declined = declined;
    this.say = say;
    this.changed = changed;
    this.tab = "log";
    this.unread = false;
    this.logBase = "";
    this.logCount = 0;
    this.noteCount = 0;
    // Focusable, so that the log scrolls by keyboard too.
    this.logList = h("ol", { class: "log", tabindex: 0 });
    // Whether the reader is at the log's end (new lines then keep it there), noted as
    // it scrolls: measured in a redraw, it made the browser lay out the whole table
    // again in the middle of drawing it, on every redraw.
    this.atEnd = true;
    this.logList.addEventListener("scroll", () => {
      const list = this.logList;
      this.atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    }, { passive: true });
    /** @type {ChatPanel|null} */
    this.chat = null;
    this.chatKey = "";
    this.chatLang = "";
    this.tabList = h("div", { role: "tablist", class: "tablist" });
    this.tabBody = h("div", { role: "tabpanel", class: "tab-body" });
    this.element = h("section", { class: "panel tabs" }, this.tabList, this.tabBody);
  }

  /** A chat line arrived: marked unread unless the chat is open. */
  heard() {
    if (this.tab !== "chat") this.unread = true;
  }

  /** @param {number|null} me whose private events the log may show */
  render(me) {
    const tabButton = (/** @type {string} */ id, /** @type {string} */ label) => h("button", {
      type: "button", role: "tab", "data-tab": id, "aria-selected": String(this.tab === id),
      class: id === "chat" && this.unread ? "unread" : "",
      onclick: () => { this.tab = id; if (id === "chat") this.unread = false; this.changed(); },
    }, label);
    fill(this.tabList, tabButton("log", t("table.log")), tabButton("chat", t("table.chat")));
    this.updateLog(me);
    if (this.tab === "log") {
      if (this.tabBody.firstChild !== this.logList) fill(this.tabBody, this.logList);
    } else {
      // Built again only for another language; its lines only when they changed.
      if (!this.chat || this.chatLang !== currentLang()) {
        this.chat = new ChatPanel((text) => this.conn.say(text), (m) => this.say(m), this.conn);
        this.chatLang = currentLang();
        this.chatKey = "";
      }
      if (this.tabBody.firstChild !== this.chat.element) fill(this.tabBody, this.chat.element);
      const key = `${this.conn.chat.length}:${this.conn.chat.at(-1)?.seq ?? 0}`;
      if (key !== this.chatKey) {
        this.chatKey = key;
        this.chat.show(this.conn.chat);
      }
    }
  }

  /** @param {number|null} me */
  updateLog(me) {
    const history = this.conn.history;
    const notes = this.conn.notes;
    const base = `${me}:${currentLang()}:${this.conn.game?.seats.map((s) => `${s.kind}${s.level}${s.name}`).join()}`;
    const fresh = history.slice(this.logCount);
    const freshNotes = notes.slice(this.noteCount);
    /** @type {LogNames} */
    const names = { name: this.name, perspective: me };
    if (this.declined) names.declined = this.declined;
    const list = this.logList;
    const rebuild = base !== this.logBase || history.length < this.logCount || notes.length < this.noteCount
      || fresh.some((s) => s.kind === "undo");
    if (rebuild) {
      this.logBase = base;
      const undone = new Set(history.filter((s) => s.kind === "undo").map((s) => s.events.find((e) => e.kind === "undo")?.undone));
      list.replaceChildren(...this.merged(history, notes, (s) => this.entry(s, names, undone.has(s.version))));
    } else if (fresh.length || freshNotes.length) {
      list.append(...this.merged(fresh, freshNotes, (s) => this.entry(s, names, false)));
    } else {
      return;
    }
    this.logCount = history.length;
    this.noteCount = notes.length;
    if (this.atEnd || fresh.length === history.length) requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  }

  /**
   * Steps and notes in the order they happened: a note after the step of its version.
   * @param {Step[]} steps
   * @param {Note[]} notes
   * @param {(s: Step) => Node[]} entry
   * @returns {Node[]}
   */
  merged(steps, notes, entry) {
    /** @type {Node[]} */
    const out = [];
    let n = 0;
    for (const step of steps) {
      while (n < notes.length && (notes[n]?.version ?? 0) < step.version) out.push(this.noteItem(/** @type {Note} */ (notes[n++])));
      out.push(...entry(step));
    }
    while (n < notes.length) out.push(this.noteItem(/** @type {Note} */ (notes[n++])));
    return out;
  }

  /** @param {Note} note */
  noteItem(note) {
    return h("li", { class: "note", "data-note": note.kind }, noteText(note, this.conn.game, this.name));
  }
}
