// The lobby's "Tournaments" (docs/tournaments.md): the tournaments in sign-up or
// running and the latest ended, each leading to its page; a form to create one
// (signed in); and, when the server says an entrant's game of a round has started, a
// notice with the way to the table. Everything comes from the lobby's WebSocket
// (`tournaments`, `tournament_game`) and is drawn into its own slot, so a form being
// filled in is never redrawn from under the hand.

import { call } from "./api.js";
import { h, stylesheet } from "./dom.js";
import { errorText, t, useTexts } from "./i18n.js";

await useTexts("tournaments");
void stylesheet("/static/css/tournaments.css");

/**
 * A tournament as the lobby lists it.
 * @typedef {object} TournamentListed
 * @property {string} id
 * @property {string} name
 * @property {"board"|"cards"} game
 * @property {number} players
 * @property {"swiss"|"robin"} format
 * @property {number} rounds
 * @property {number} round
 * @property {"signup"|"running"|"over"|"cancelled"} status
 * @property {boolean} rated
 * @property {{mode: string, preset?: string|null, days?: number|null}|null} clock
 * @property {string} starts_at
 * @property {number} most
 * @property {string} creator
 * @property {number} entrants
 */

/** @typedef {{tournaments: TournamentListed[]|null, tournamentGame: {tournament: string, name: string, round: number, id: string, link: string}|null}} TournamentSource */

/** The clocks a tournament's games may have: real-time presets, days per move. */
export const CLOCKS = ["fast", "medium", "slow", "turn:1", "turn:2", "turn:3", "turn:5"];
const FALLBACK = ["board", "cards"];
const STARTS = [10, 30, 60, 120, 24 * 60, 7 * 24 * 60];

/**
 * A clock in words.
 * @param {TournamentListed["clock"]} clock
 */
export function clockWords(clock) {
  if (!clock) return t("lobby.clock.none");
  if (clock.mode === "turn") return t("lobby.clock.turn", { n: clock.days ?? 1 });
  return t(`lobby.clock.${clock.preset ?? "medium"}`);
}

/**
 * The game and table in words: "Tigris & Euphrates · 2 players · Swiss, 3 rounds".
 * @param {{game: string, players: number, format: string, rounds: number}} t0
 */
export function kindWords(t0) {
  const rounds = t0.format === "swiss" ? t("tournaments.rounds", { n: t0.rounds }) : "";
  return [t(`lobby.${t0.game === "cards" ? "cards" : "board"}`), t("tournaments.table_of", { n: t0.players }),
    `${t(`tournaments.format.${t0.format}`)}${rounds ? `, ${rounds}` : ""}`].join(" · ");
}

/**
 * A date and time in the page's language.
 * @param {string} iso
 */
export function when(iso) {
  const d = new Date(iso);
  return d.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * Minutes in words: "30 minutes", "2 hours", "1 day".
 * @param {number} m
 */
function duration(m) {
  if (m % 1440 === 0) return t("tournaments.days", { n: m / 1440 });
  if (m % 60 === 0) return t("tournaments.hours", { n: m / 60 });
  return t("tournaments.minutes", { n: m });
}

export class TournamentsPanel {
  /**
   * @param {TournamentSource} source the lobby's socket
   * @param {() => import("./offer.js").Offer|null} [offered] what the server offers (null until it said)
   */
  constructor(source, offered = () => null) {
    this.source = source;
    this.offered = offered;
    this.slot = h("div", { class: "tournaments-slot" });
    this.creating = false;
    this.busy = false;
    /** @type {string|null} */
    this.error = null;
    this.signedIn = false;
    this.drawn = "";
    this.formGames = "";
    this.form = this.makeForm();
    this.formLang = document.documentElement.lang;
  }

  /** @param {boolean} signedIn */
  update(signedIn) {
    this.signedIn = signedIn;
    const key = JSON.stringify([this.source.tournaments, this.source.tournamentGame, signedIn, this.creating,
      this.error, this.busy, document.documentElement.lang]);
    if (key === this.drawn) return;
    this.drawn = key;
    const focused = document.activeElement;
    this.slot.replaceChildren(this.panel());
    if (focused instanceof HTMLElement && this.form.contains(focused)) focused.focus();
  }

  panel() {
    const lang = document.documentElement.lang;
    const games = JSON.stringify(this.games());
    if ((this.formLang !== lang || this.formGames !== games) && !this.creating) {
      this.formGames = games;
      this.form = this.makeForm();
      this.formLang = lang;
    }
    const all = this.source.tournaments ?? [];
    const live = all.filter((x) => x.status === "signup" || x.status === "running");
    const ended = all.filter((x) => x.status === "over" || x.status === "cancelled").slice(0, 5);
    const game = this.source.tournamentGame;
    return h("section", { class: "card tournaments", "aria-labelledby": "tournaments-title" },
      h("h2", { id: "tournaments-title" }, t("tournaments.title")),
      game ? h("p", { class: "notice tournament-game", role: "status" },
        t("tournaments.your_game", { name: game.name, round: game.round }), " ",
        h("a", { class: "button primary", href: game.link }, t("tournaments.to_table"))) : null,
      this.source.tournaments === null ? h("p", { class: "hint" }, t("tournaments.loading"))
        : live.length === 0 ? h("p", { class: "hint" }, t("tournaments.none")) : null,
      live.length ? h("ul", { class: "tournament-list" }, ...live.map((x) => this.row(x))) : null,
      ended.length ? h("details", { class: "ended" }, h("summary", {}, t("tournaments.ended")),
        h("ul", { class: "tournament-list" }, ...ended.map((x) => this.row(x)))) : null,
      this.signedIn
        ? (this.creating ? this.form
          : h("button", { type: "button", class: "button", id: "tournament-new", onclick: () => { this.creating = true; this.error = null; this.update(this.signedIn); } }, t("tournaments.new")))
        : h("p", { class: "hint" }, t("tournaments.sign_in")));
  }

  /** @param {TournamentListed} x */
  row(x) {
    const state = x.status === "running" ? t("tournaments.round_of", { round: x.round, rounds: x.rounds })
      : x.status === "signup" ? t("tournaments.starts", { when: when(x.starts_at) })
        : t(`tournaments.status.${x.status}`);
    return h("li", { "data-id": x.id, "data-status": x.status },
      h("a", { href: `/t/${x.id}`, class: "tournament-name" }, x.name),
      h("span", { class: "meta" }, kindWords(x)),
      h("span", { class: "meta" }, `${clockWords(x.clock)}${x.rated ? ` · ${t("tournaments.rated")}` : ""}`),
      h("span", { class: "meta" }, `${t("tournaments.entrants_n", { n: x.entrants, most: x.most })} · ${state}`));
  }

  /** The games the server offers (before it said: the registry's two). */
  games() {
    return this.offered()?.games ?? FALLBACK;
  }

  makeForm() {
    /** @param {string} name @param {string} label @param {[string, string][]} options @param {string} value */
    const select = (name, label, options, value) => h("label", { class: "field" }, h("span", {}, label),
      h("select", { name }, ...options.map(([v, words]) => h("option", { value: v, selected: v === value ? "" : null }, words))));
    const form = /** @type {HTMLFormElement} */ (h("form", { class: "tournament-form", "aria-label": t("tournaments.new") },
      h("label", { class: "field" }, h("span", {}, t("tournaments.name")),
        h("input", { type: "text", name: "name", required: "", maxlength: "80", value: "", autocomplete: "off" })),
      select("game", t("lobby.game"), this.games().map((g) => /** @type {[string, string]} */ ([g, t(`lobby.${g}`)])), this.games()[0]),
      select("players", t("tournaments.table_size"), [2, 3, 4].map((n) => /** @type {[string, string]} */ ([String(n), t("tournaments.table_of", { n })])), "2"),
      select("format", t("tournaments.format"), [["swiss", t("tournaments.format.swiss")], ["robin", t("tournaments.format.robin")]], "swiss"),
      h("label", { class: "field" }, h("span", {}, t("tournaments.rounds_label")),
        h("input", { name: "rounds", type: "number", min: "1", max: "20", value: "3" })),
      select("clock", t("lobby.clock"), CLOCKS.map((c) => /** @type {[string, string]} */ ([c, clockWords(c.startsWith("turn:")
        ? { mode: "turn", days: Number(c.slice(5)) } : { mode: "realtime", preset: c })])), "medium"),
      select("starts_in", t("tournaments.starts_in"), STARTS.map((m) => /** @type {[string, string]} */ ([String(m), duration(m)])), "60"),
      h("label", { class: "field" }, h("span", {}, t("tournaments.most")),
        h("input", { name: "most", type: "number", min: "2", max: "64", value: "16" })),
      select("bots", t("tournaments.bots"), [["", t("tournaments.bots.none")],
        ...["beginner", "intermediate", "strong"].map((l) => /** @type {[string, string]} */ ([l, t(`level.${l}`)]))], ""),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated" }), t("tournaments.rated")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "late" }), t("tournaments.late")),
      h("div", { class: "actions" },
        h("button", { type: "submit", class: "button primary" }, t("tournaments.create")),
        h("button", { type: "button", class: "button", onclick: () => { this.creating = false; this.update(this.signedIn); } }, t("tournaments.cancel"))),
      h("p", { class: "error", role: "alert", "aria-live": "polite" })));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); void this.create(form); });
    return form;
  }

  /** @param {HTMLFormElement} form */
  async create(form) {
    if (this.busy) return;
    const data = new FormData(form);
    const clock = String(data.get("clock"));
    const body = {
      name: String(data.get("name") ?? "").trim(),
      game: String(data.get("game")),
      players: Number(data.get("players")),
      format: String(data.get("format")),
      rounds: Number(data.get("rounds")),
      clock: clock.startsWith("turn:") ? { mode: "turn", days: Number(clock.slice(5)) } : { mode: "realtime", preset: clock },
      starts_in: Number(data.get("starts_in")),
      most: Number(data.get("most")),
      bots: data.get("bots") ? String(data.get("bots")) : null,
      rated: data.get("rated") !== null,
      late: data.get("late") !== null,
    };
    const problem = /** @type {HTMLElement} */ (form.querySelector(".error"));
    this.busy = true;
    try {
      const made = await call("/api/tournaments", { method: "POST", body });
      location.assign(`/t/${made.id}`);
    } catch (e) {
      problem.textContent = errorText(e);
    } finally {
      this.busy = false;
    }
  }
}
