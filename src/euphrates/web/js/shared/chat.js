// The table's chat: plain text only (textContent, never markup). A signed-in player
// may report another's line to the server's admins (report.js); the server keeps
// from each client the lines of a player on either side of a block with its account.

import { call } from "./api.js";
import { h, stylesheet } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { ServerError } from "./net.js";

/** @typedef {import("./types.js").ChatLine} ChatLine */
/** @typedef {typeof import("./report.js")} Reports */

/** @typedef {{me: {name: string}|null, reports: Reports|null}} Moderation */

/** @type {Promise<Moderation>|null} */
let asked = null;

/** Who is signed in, and the report's dialog for them: asked once a page and only
 * when its chat is first shown, so that a table's first load carries neither (most
 * tables are never chatted at, and a guest reports nothing). */
function moderation() {
  asked ??= Promise.all([import("./account.js"), import("./report.js")]).then(async ([accounts, reports]) => {
    const me = await accounts.loadAccount().catch(() => null);
    if (me) await stylesheet(reports.MODERATION_CSS);
    return { me, reports };
  }, () => ({ me: null, reports: null }));
  return asked;
}

/**
 * The chat's lines and its input. The input is built once and kept, so that what a
 * player is typing survives the moves and lines that arrive meanwhile; `show` only
 * redraws the lines.
 */
export class ChatPanel {
  /**
   * @param {(text: string) => Promise<any>} say
   * @param {(message: string) => void} complain
   * @param {{gameId: string, seats: number[]}} table whose chat it is, and the seats this page holds
   */
  constructor(say, complain, table) {
    this.table = table;
    /** @type {ChatLine[]} */
    this.lines = [];
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite" });
    const input = h("input", { type: "text", maxlength: 500, "aria-label": t("table.chat_hint"), placeholder: t("table.chat_hint"), id: "chat-input" });
    const form = h("form", {
      class: "row",
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        try {
          await say(text);
          input.value = "";
        } catch (err) {
          if (err instanceof ServerError) complain(refusal(err.code, err.message, err.ruling));
        }
      },
    }, input, h("button", { type: "submit" }, t("table.send")));
    this.element = h("div", { class: "chat" }, this.list, form);
    /** The signed-in player and the report's dialog, once known. */
    /** @type {Moderation|null} */
    this.moderation = null;
    void moderation().then((known) => {
      this.moderation = known;
      if (known.me) this.show(this.lines);
    });
  }

  /** @param {ChatLine[]} lines */
  show(lines) {
    this.lines = lines;
    const me = this.moderation?.me;
    const reports = this.moderation?.reports;
    this.list.replaceChildren(...lines.map((c) => h("li", {},
      h("span", { class: "author" }, c.author), " ", h("span", { class: "text" }, c.text),
      me && reports && !this.mine(c, me.name) ? this.reportButton(c, reports) : null)));
    queueMicrotask(() => { this.list.scrollTop = this.list.scrollHeight; });
  }

  /**
   * Whether the page's player said the line: from a seat this page holds, or as the
   * signed-in spectator (a spectator's line is named by its account).
   * @param {ChatLine} line
   * @param {string} name the signed-in account's
   */
  mine(line, name) {
    return line.seat === null ? line.author === name : this.table.seats.includes(line.seat);
  }

  /**
   * @param {ChatLine} line
   * @param {Reports} reports
   */
  reportButton(line, reports) {
    const label = t("report.line_by", { name: line.author });
    const quote = [h("span", { class: "author" }, line.author), " ", h("span", { class: "text" }, line.text)];
    const send = (/** @type {string} */ reason) => call(
      `/api/games/${encodeURIComponent(this.table.gameId)}/chat/${line.seq}/report`, { method: "POST", body: { reason } });
    return h("button", {
      type: "button", class: "chat-report quiet", "aria-label": label, title: label, "data-seq": line.seq,
      onclick: () => void reports.openReport({ title: t("report.title_line"), quote: h("span", {}, ...quote), send }),
    }, reports.flagIcon());
  }
}
