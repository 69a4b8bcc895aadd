// The Hint button, in an unrated game against bots: the strong bot's move for the seat
// that decides, worked out by the server from that seat's view only (docs/server.md,
// Hints). The move is said in words and its places lit as a pointed-at choice lights
// them; the hint belongs to the version it was asked at and goes when the game moves.

import { call } from "./api.js";
import { h } from "./dom.js";
import { currentLang, errorText, t } from "./i18n.js";

/**
 * The part of a table the hint uses.
 * @typedef {object} HintHost
 * @property {{tokens: string[], version: number}} conn
 * @property {(action: string, seat: number) => string} shown an action in words, as the seat's
 * @property {(action: string) => Set<string>} places the places an action names
 * @property {(places: Set<string>|null) => void} light
 * @property {(text: string) => void} say
 * @property {() => void} renderNow
 */

export class Hint {
  /** @param {HintHost} table */
  constructor(table) {
    this.table = table;
    /** @type {{version: number, seat: number, action: string, words: Record<string, string>|null}|null} */
    this.answer = null;
    this.busy = false;
  }

  /**
   * The button and the hint given for this decision, or nothing where no hint is given.
   * @param {import("./types.js").GameMeta} game
   * @param {number|null} seat the seat shown, if it decides now
   */
  render(game, seat) {
    const allowed = seat !== null && !game.rated && game.status === "active"
      && game.seats[seat]?.kind === "human" && game.seats.some((s) => s.kind === "bot")
      && !game.seats.some((s) => s.level === "tour"); // the guided tour says each move itself
    if (!allowed) return null;
    const answer = this.answer?.seat === seat && this.answer.version === this.table.conn.version ? this.answer : null;
    return h("div", { class: "hint-box row" },
      h("button", {
        type: "button", class: "small hint-button", id: "hint", title: t("table.hint_title"),
        disabled: this.busy || answer !== null, onclick: () => void this.ask(game.id, seat),
      }, t("table.hint")),
      this.busy ? h("span", { class: "hint" }, t("table.hint_wait")) : null,
      answer ? h("span", { class: "hint-move", "data-action": answer.action }, t("table.hint_move", { move: this.said(answer) })) : null);
  }

  /**
   * The hint in words: the server's advice in the page's language, else the action as
   * the table words it.
   * @param {{seat: number, action: string, words: Record<string, string>|null}} answer
   */
  said(answer) {
    const words = answer.words?.[currentLang()];
    return typeof words === "string" && words ? words : this.table.shown(answer.action, answer.seat);
  }

  /**
   * @param {string} gameId
   * @param {number} seat
   */
  async ask(gameId, seat) {
    if (this.busy) return;
    this.busy = true;
    this.table.renderNow();
    try {
      const doc = await call(`/api/games/${gameId}/seats/${seat}/hint`, { method: "POST", body: {}, tokens: this.table.conn.tokens });
      const words = doc.words && typeof doc.words === "object" ? /** @type {Record<string, string>} */ (doc.words) : null;
      this.answer = { version: Number(doc.version), seat, action: String(doc.action), words };
      if (this.answer.version === this.table.conn.version) this.table.light(this.table.places(this.answer.action));
    } catch (e) {
      this.table.say(errorText(e));
    } finally {
      this.busy = false;
      this.table.renderNow();
    }
  }
}
