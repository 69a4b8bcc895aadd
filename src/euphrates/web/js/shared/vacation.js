// The vacation of the settings page (docs/fair-play.md, Vacation): the days left this
// year, and either a number of days and "Start vacation", or the vacation's end and
// "End vacation". While it lasts, the account's turn-based games wait for it
// (GET/POST/DELETE /api/account/vacation).

import { call } from "./api.js";
import { h } from "./dom.js";
import { currentLang, errorText, t } from "./i18n.js";

/**
 * What the server says of the account's vacation.
 * @typedef {object} VacationState
 * @property {boolean} on_vacation
 * @property {string|null} starts
 * @property {string|null} ends
 * @property {number} days_left
 * @property {number} days_a_year
 */

export class VacationSection {
  /** @param {() => void} changed draw the page again */
  constructor(changed) {
    this.changed = changed;
    /** @type {VacationState|null} */
    this.state = null;
    /** @type {string|null} why the last request was refused */
    this.error = null;
    /** What the last request did, said once. */
    this.done = "";
    this.busy = false;
    /** @type {number|null} the days typed in (kept when the page is drawn again) */
    this.days = null;
  }

  /** Ask the server how the account's vacation stands. */
  async load() {
    try {
      this.state = await call("/api/account/vacation");
    } catch (e) {
      this.error = errorText(e);
    }
  }

  /**
   * Start or end the vacation; the answer is the state after it.
   * @param {() => Promise<VacationState>} request
   * @param {string} done the words for success
   */
  async act(request, done) {
    this.busy = true;
    this.error = null;
    this.done = "";
    this.changed();
    try {
      this.state = await request();
      this.done = done;
    } catch (e) {
      this.error = errorText(e);
    }
    this.busy = false;
    this.changed();
  }

  render() {
    const v = this.state;
    const title = h("h2", { id: "vacation-title" }, t("vacation.title"));
    const parts = [];
    if (v) {
      const left = Math.floor(v.days_left);
      parts.push(h("p", { class: "hint" }, t("vacation.hint", { n: v.days_a_year })),
        h("p", { id: "vacation-left" }, t("vacation.left", { n: left, m: v.days_a_year })));
      if (v.on_vacation && v.ends) {
        const ends = new Date(v.ends).toLocaleString(currentLang(), { dateStyle: "long", timeStyle: "short" });
        parts.push(h("p", { id: "vacation-until", class: "vacation-now" }, t("vacation.until", { date: ends })),
          h("button", {
            type: "button", id: "end-vacation", disabled: this.busy,
            onclick: () => void this.act(() => call("/api/account/vacation", { method: "DELETE" }), t("vacation.ended")),
          }, t("vacation.end")));
      } else if (left >= 1) {
        const days = h("input", {
          type: "number", id: "vacation-days", min: 1, max: left, step: 1, value: this.days ?? Math.min(7, left), inputmode: "numeric",
          oninput: (/** @type {Event} */ e) => { this.days = Number(/** @type {HTMLInputElement} */ (e.target).value); },
        });
        parts.push(h("div", { class: "row" },
          h("label", { class: "label", for: "vacation-days" }, t("vacation.days")), days,
          h("button", {
            type: "button", id: "start-vacation", disabled: this.busy,
            onclick: () => void this.act(() => call("/api/account/vacation", { method: "POST", body: { days: Number(/** @type {HTMLInputElement} */ (days).value) } }), t("vacation.started")),
          }, t("vacation.start"))));
      } else {
        parts.push(h("p", { class: "hint", id: "vacation-none" }, t("vacation.none_left")));
      }
    }
    return h("section", { class: "card vacation", "aria-labelledby": "vacation-title" }, title, ...parts,
      this.error ? h("p", { class: "error", role: "alert", id: "vacation-error" }, this.error) : null,
      this.done ? h("p", { class: "hint", role: "status", id: "vacation-done" }, this.done) : null);
  }
}
