// The open tables' filters (docs/web.md, The lobby): the game, the size, the speed (a
// real-time preset, any real-time clock, turn-based, no clock), rated or not, and a
// range of ratings that every player already seated must be within. The same rule as
// the server's (`GET /api/tables?…`, features/tables/filters.py), applied to the list
// the lobby's socket keeps; the filters live in the page's address, under the API's
// own names, so a filtered lobby can be bookmarked or shared.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./lobbynet.js").TableEntry} TableEntry */
/**
 * @typedef {{game: string, players: string, speed: string, rated: string,
 *            rating_min: string, rating_max: string}} Filters
 *   each as its parameter says it; "" for any
 */

export const SPEEDS = ["fast", "medium", "slow", "realtime", "turn", "none"];
/** The filters' names, as parameters of the address and of the API. */
const NAMES = /** @type {const} */ (["game", "players", "speed", "rated", "rating_min", "rating_max"]);
const BOUND = 9999;

/**
 * A table's speed as the filters name it.
 * @param {TableEntry["clock"]} clock
 */
export function speedOf(clock) {
  if (!clock) return "none";
  if (clock.mode === "turn") return "turn";
  return clock.preset || "realtime";
}

/**
 * A rating bound as a number, or null where none is given (or it is not a number).
 * @param {string} text
 */
function bound(text) {
  if (text.trim() === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? Math.max(-BOUND, Math.min(BOUND, n)) : null;
}

/**
 * Whether a table passes the filters (features/tables/filters.py, `shown`).
 * @param {TableEntry} entry
 * @param {Filters} f
 */
export function passes(entry, f) {
  if (f.game && entry.game !== f.game) return false;
  if (f.players && entry.players !== Number(f.players)) return false;
  if (f.rated && entry.rated !== (f.rated === "true")) return false;
  if (f.speed) {
    const speed = speedOf(entry.clock);
    if (speed !== f.speed && !(f.speed === "realtime" && speed !== "turn" && speed !== "none")) return false;
  }
  const ratings = entry.seats.map((s) => s.rating).filter((r) => typeof r === "number");
  const low = bound(f.rating_min);
  const high = bound(f.rating_max);
  if (low !== null && ratings.some((r) => /** @type {number} */ (r) < low)) return false;
  return high === null || ratings.every((r) => /** @type {number} */ (r) <= high);
}

/** @returns {Filters} the filters the page's address names */
function fromAddress() {
  const q = new URLSearchParams(location.search);
  const f = /** @type {Filters} */ (Object.fromEntries(NAMES.map((n) => [n, q.get(n) ?? ""])));
  if (!SPEEDS.includes(f.speed)) f.speed = "";
  if (!["true", "false"].includes(f.rated)) f.rated = "";
  if (!["2", "3", "4"].includes(f.players)) f.players = "";
  for (const n of /** @type {const} */ (["rating_min", "rating_max"])) if (bound(f[n]) === null) f[n] = "";
  return f;
}

export class TableFilter {
  /**
   * @param {() => string[]} games the games the server offers
   * @param {() => void} changed called when a filter changed
   */
  constructor(games, changed) {
    this.games = games;
    this.changed = changed;
    this.filters = fromAddress();
    /** The controls: one element for the page's life, so that a redraw of the list
     * around it keeps the control in hand. */
    this.element = h("fieldset", { class: "table-filter" });
    this.drawn = "";
  }

  /** Whether any filter is set. */
  active() {
    return NAMES.some((n) => this.filters[n] !== "");
  }

  /**
   * The tables that pass.
   * @param {TableEntry[]} list
   */
  apply(list) {
    return list.filter((e) => passes(e, this.filters));
  }

  /**
   * @param {keyof Filters} name
   * @param {string} value
   */
  set(name, value) {
    this.filters[name] = value;
    const q = new URLSearchParams(location.search);
    for (const n of NAMES) {
      if (this.filters[n]) q.set(n, this.filters[n]);
      else q.delete(n);
    }
    const search = q.toString();
    history.replaceState(history.state, "", `${location.pathname}${search ? `?${search}` : ""}${location.hash}`);
    this.draw();
    this.changed();
  }

  clear() {
    for (const n of NAMES) this.filters[n] = "";
    this.set("game", "");
  }

  /** Draw the controls where their texts or values changed; returns the element. */
  draw() {
    const key = JSON.stringify([this.filters, this.games(), t("tables.filter")]);
    if (key === this.drawn) return this.element;
    this.drawn = key;
    const focused = this.element.contains(document.activeElement) ? document.activeElement?.id : undefined;
    /**
     * @param {keyof Filters} name
     * @param {string} label
     * @param {[string, string][]} choices value and text; the first is "any"
     */
    const select = (name, label, choices) => h("label", { class: "filter-field" },
      h("span", { class: "label" }, label),
      h("select", {
        id: `filter-${name}`, name,
        onchange: (/** @type {Event} */ e) => this.set(name, /** @type {HTMLSelectElement} */ (e.target).value),
      }, ...choices.map(([v, text]) => h("option", { value: v, selected: this.filters[name] === v }, text))));
    /** @param {"rating_min"|"rating_max"} name @param {string} label */
    const rating = (name, label) => h("label", { class: "filter-field rating-bound" },
      h("span", { class: "label" }, label),
      h("input", {
        type: "number", id: `filter-${name}`, name, inputmode: "numeric", min: -BOUND, max: BOUND, step: 50,
        value: this.filters[name],
        onchange: (/** @type {Event} */ e) => {
          const v = bound(/** @type {HTMLInputElement} */ (e.target).value);
          this.set(name, v === null ? "" : String(Math.round(v)));
        },
      }));
    /** @type {HTMLElement[]} */
    const parts = [
      h("legend", {}, t("tables.filter")),
      select("game", t("lobby.game"), [["", t("tables.any_game")], ...this.games().map((g) => /** @type {[string, string]} */ ([g, t(`lobby.${g}`)]))]),
      select("players", t("lobby.players"), [["", t("tables.any_size")], ...["2", "3", "4"].map((n) => /** @type {[string, string]} */ ([n, n]))]),
      select("speed", t("quick.speed"), [["", t("tables.any_speed")],
        ...SPEEDS.map((s) => /** @type {[string, string]} */ ([s, t(`tables.speed.${s}`)]))]),
      select("rated", t("ratings.rated"), [["", t("tables.rated_any")], ["true", t("tables.rated_only")], ["false", t("tables.unrated_only")]]),
      h("div", { class: "filter-field rating-range", role: "group", "aria-labelledby": "filter-ratings" },
        h("span", { class: "label", id: "filter-ratings" }, t("tables.ratings")),
        h("div", { class: "row" }, rating("rating_min", t("tables.rating_from")), rating("rating_max", t("tables.rating_to")))),
    ];
    if (this.active()) {
      parts.push(h("button", { type: "button", class: "small quiet", id: "filter-clear", onclick: () => this.clear() },
        t("tables.clear_filters")));
    }
    this.element.replaceChildren(...parts);
    if (focused) document.getElementById(focused)?.focus();
    return this.element;
  }
}
