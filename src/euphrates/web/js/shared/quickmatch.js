// The lobby's "Quick match" (docs/server.md, Quick match): the player chooses a table —
// the game, its players, its speed (a real-time preset or days per move) and the game's
// options — and waits for as many players asking for the same; while it waits, for how
// long, how wide the window of ratings is by now (it widens with the wait, by the rule
// the server sends) and how many wait for the same table (a count, no names), with a
// cancel; once seated, to the table at once. What it shows comes from the lobby's
// WebSocket and the answers to its own requests; the choice is remembered in this
// browser (localStorage).

import { call } from "./api.js";
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";

/** @typedef {import("./lobbynet.js").QuickMatchState} QuickMatchState */
/** @typedef {{quickmatch: QuickMatchState|null, quickmatchAt: number}} QuickSource */
/** @typedef {import("./offer.js").Offer} Offer */
/** @typedef {{game: string, players: number, clock: string, options: Record<string, Record<string, boolean>>}} QuickChoice */

/** The clocks a wait may name (features/quickmatch/kinds.py), fastest first. */
export const CLOCKS = ["fast", "medium", "slow", "turn:1", "turn:2", "turn:3", "turn:5"];
/** Where this browser keeps the last table chosen. */
const KEY = "euphrates.quickmatch";
/** Before the server has said what it offers: its games and their sizes as they are. */
const FALLBACK = { games: ["board", "cards"], players: [2, 3, 4] };

/**
 * Minutes and seconds: 0:12, 1:05.
 * @param {number} seconds
 */
export function clockTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The largest rating difference accepted after `waited` seconds (null: any), by the
 * server's rule (matching.py).
 * @param {NonNullable<QuickMatchState["rule"]>} rule
 * @param {number} waited
 */
export function windowAfter(rule, waited) {
  if (waited >= rule.any_after) return null;
  return rule.start + rule.step * Math.floor(Math.max(0, waited) / rule.every);
}

/**
 * A clock's name in words: a real-time preset, or days per move.
 * @param {string} clock
 */
export function clockName(clock) {
  return clock.startsWith("turn:") ? t("lobby.clock.turn", { n: clock.slice(5) }) : t(`lobby.clock.${clock}`);
}

/** @returns {QuickChoice} the choice this browser remembers, or the first game's duel */
function remembered() {
  /** @type {QuickChoice} */
  const choice = { game: "", players: 2, clock: "medium", options: {} };
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    if (typeof kept.game === "string") choice.game = kept.game;
    if (Number.isInteger(kept.players)) choice.players = kept.players;
    if (CLOCKS.includes(kept.clock)) choice.clock = kept.clock;
    if (kept.options && typeof kept.options === "object") choice.options = kept.options;
  } catch {
    /* nothing kept, or storage refused: the defaults */
  }
  return choice;
}

export class QuickMatchPanel {
  /**
   * @param {QuickSource} source the lobby's socket
   * @param {() => Offer|null} [offered] what the server offers (null until it said)
   */
  constructor(source, offered = () => null) {
    this.source = source;
    this.offered = offered;
    this.slot = h("div", { class: "quick-slot" });
    this.choice = remembered();
    /** @type {string|null} */
    this.error = null;
    this.busy = false;
    /** A wait ended unseated while this page watched (not by its own cancel). */
    this.ended = false;
    this.cancelling = false;
    /** This page asked for a table and has not been to it yet. */
    this.asked = false;
    /** @type {QuickMatchState|null} */
    this.last = null;
    this.signedIn = false;
    /** What the panel was last drawn from: the same told again is not drawn again. */
    this.drawn = "";
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.ticker = undefined;
    /** @type {(() => void)|null} */
    this.tick = null;
  }

  /**
   * Draw again where something shown changed: a state told, signed in or out, the
   * language, what the server offers.
   * @param {boolean} signedIn
   */
  update(signedIn) {
    this.signedIn = signedIn;
    const now = this.source.quickmatch;
    const before = this.last;
    this.last = now;
    if (now?.state === "waiting") this.asked = true;
    if (now?.state === "matched" && now.match && (this.asked || before?.state === "waiting")) {
      this.asked = false;
      location.assign(now.match.link);
    }
    if (before?.state === "waiting" && now?.state === "idle" && !this.cancelling) this.ended = true;
    if (now?.state !== "idle") this.cancelling = false;
    this.draw(false);
  }

  /** The games, their sizes and options as the server offers them. */
  games() {
    const offer = this.offered();
    return offer ? offer.games : FALLBACK.games;
  }

  /** @param {string} game */
  sizes(game) {
    return this.offered()?.described[game]?.players ?? FALLBACK.players;
  }

  /** @param {string} game @returns {Record<string, boolean>} the game's options as chosen */
  optionsOf(game) {
    const defaults = this.offered()?.described[game]?.options ?? {};
    const chosen = this.choice.options[game] ?? {};
    return Object.fromEntries(Object.keys(defaults).map((o) => [o, Boolean(chosen[o] ?? defaults[o])]));
  }

  /** The choice kept within what the server offers (a game or size it no longer has). */
  settle() {
    const games = this.games();
    if (!games.includes(this.choice.game)) this.choice.game = games[0] ?? "board";
    const sizes = this.sizes(this.choice.game);
    if (!sizes.includes(this.choice.players)) this.choice.players = sizes[0] ?? 2;
  }

  /** @param {Partial<QuickChoice>} change */
  choose(change) {
    Object.assign(this.choice, change);
    this.settle();
    try {
      localStorage.setItem(KEY, JSON.stringify(this.choice));
    } catch {
      /* storage refused: the choice lasts while the page does */
    }
    this.draw(true);
  }

  /** @param {boolean} always draw even if nothing shown changed */
  draw(always) {
    const s = this.signedIn ? this.source.quickmatch : null;
    const shown = s ? { ...s, waited: undefined, window: undefined } : null;
    const key = JSON.stringify([this.signedIn, shown, this.error, this.busy, this.ended, this.choice,
      Boolean(this.offered()), t("quick.title")]);
    if (!always && key === this.drawn && this.slot.firstChild) return;
    this.drawn = key;
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.tick = null;
    this.settle();
    const focused = this.slot.contains(document.activeElement) ? document.activeElement?.id : undefined;
    const body = !this.signedIn
      ? h("p", { class: "hint" }, t("quick.sign_in"))
      : s?.state === "waiting" ? this.waiting(s)
        : s?.state === "matched" && s.match ? this.matched(s.match)
          : this.form();
    this.slot.replaceChildren(h("section", { class: "card quick-match", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, t("quick.title")),
      h("p", { class: "hint" }, t("quick.hint")),
      body,
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      this.ended && s?.state === "idle" ? h("p", { class: "hint", role: "status" }, t("quick.ended")) : null));
    if (focused) document.getElementById(focused)?.focus();
  }

  /** The table to ask for, and the button that asks. */
  form() {
    const c = this.choice;
    const options = this.optionsOf(c.game);
    return h("div", { class: "quick-form" },
      h("div", { class: "field" }, h("span", { class: "label", id: "quick-game-label" }, t("lobby.game")),
        h("div", { class: "segmented", role: "radiogroup", "aria-labelledby": "quick-game-label" },
          ...this.games().map((g) => h("button", {
            type: "button", role: "radio", id: `quick-game-${g}`, "data-game": g, "aria-checked": String(c.game === g),
            onclick: () => this.choose({ game: g }),
          }, t(`lobby.${g}`))))),
      h("div", { class: "field" }, h("span", { class: "label", id: "quick-players-label" }, t("lobby.players")),
        h("div", { class: "segmented", role: "radiogroup", "aria-labelledby": "quick-players-label" },
          ...this.sizes(c.game).map((n) => h("button", {
            type: "button", role: "radio", id: `quick-players-${n}`, "data-players": n, "aria-checked": String(c.players === n),
            onclick: () => this.choose({ players: n }),
          }, String(n))))),
      h("div", { class: "field" }, h("label", { class: "label", for: "quick-clock" }, t("quick.speed")),
        h("select", {
          id: "quick-clock", name: "quick-clock",
          onchange: (/** @type {Event} */ e) => this.choose({ clock: /** @type {HTMLSelectElement} */ (e.target).value }),
        }, ...CLOCKS.map((k) => h("option", { value: k, selected: c.clock === k }, clockName(k))))),
      Object.keys(options).length
        ? h("fieldset", { class: "options quick-options" }, h("legend", {}, t("lobby.options")),
          ...Object.entries(options).map(([o, on]) => h("label", { class: "check" },
            h("input", {
              type: "checkbox", id: `quick-opt-${o}`, name: `quick-${o}`, checked: on,
              onchange: (/** @type {Event} */ e) => this.choose({
                options: { ...c.options, [c.game]: { ...options, [o]: /** @type {HTMLInputElement} */ (e.target).checked } },
              }),
            }), t(`lobby.opt.${o}`))))
        : null,
      h("button", {
        type: "button", class: "primary quick-play", id: "quick-play", "data-game": c.game, disabled: this.busy,
        onclick: () => void this.join(),
      }, t("quick.play")));
  }

  /**
   * What a wait or a table asked for, in words: "3 players · Real-time, fast … · Open
   * point piles".
   * @param {QuickMatchState} s
   */
  askedFor(s) {
    const on = Object.entries(s.options ?? {}).filter(([, v]) => v).map(([o]) => t(`lobby.opt.${o}`));
    return [t("tables.players", { n: s.players ?? 2 }), clockName(s.clock ?? "medium"), ...on].join(" · ");
  }

  /** @param {QuickMatchState} s */
  waiting(s) {
    const rule = s.rule ?? { start: 100, step: 50, every: 10, any_after: 60 };
    const timer = h("span", { class: "quick-timer", role: "timer" });
    const wide = h("span", { class: "quick-window" });
    this.tick = () => {
      const waited = (s.waited ?? 0) + (performance.now() - this.source.quickmatchAt) / 1000;
      timer.textContent = t("quick.waited", { time: clockTime(waited) });
      const w = windowAfter(rule, waited);
      wide.textContent = w === null ? t("quick.window_any") : t("quick.window", { n: w });
    };
    this.tick();
    this.ticker = setInterval(() => this.tick?.(), 1000);
    return h("div", { class: "quick-wait" },
      h("p", { class: "quick-looking", role: "status" },
        h("span", { class: "spinner", "aria-hidden": "true" }),
        t("quick.looking", { game: t(`lobby.${s.game ?? "board"}`), n: s.players ?? 2 })),
      h("p", { class: "quick-kind" }, this.askedFor(s)),
      h("p", { class: "quick-meta" }, timer, " · ", wide,
        s.rating !== undefined ? ` · ${t("quick.rating", { n: s.rating })}` : ""),
      h("p", { class: "quick-alike" }, t("quick.alike", { n: s.alike ?? 1 })),
      h("button", { type: "button", class: "quick-cancel", disabled: this.busy, onclick: () => void this.leave() },
        t("quick.cancel")));
  }

  /** @param {NonNullable<QuickMatchState["match"]>} match */
  matched(match) {
    const names = match.opponents?.length ? match.opponents : [match.opponent ?? "?"];
    return h("div", { class: "quick-found" },
      h("p", { role: "status" }, t("quick.found", { name: names.join(", ") }),
        " ", h("a", { class: "button small", href: match.link }, t("quick.to_table"))),
      this.form());
  }

  async join() {
    this.error = null;
    this.ended = false;
    this.busy = true;
    this.asked = true;
    this.draw(true);
    const c = this.choice;
    const body = { game: c.game, players: c.players, clock: c.clock, options: this.optionsOf(c.game) };
    const asked = performance.now();
    try {
      this.told(await call("/api/quickmatch", { method: "POST", body }), asked);
    } catch (e) {
      this.error = errorText(e);
    }
    this.busy = false;
    this.update(this.signedIn);
  }

  async leave() {
    this.error = null;
    this.busy = true;
    this.cancelling = true;
    this.asked = false;
    this.draw(true);
    const asked = performance.now();
    try {
      this.told(await call("/api/quickmatch", { method: "DELETE" }), asked);
    } catch (e) {
      this.error = errorText(e);
    }
    this.busy = false;
    this.update(this.signedIn);
  }

  /**
   * An answer to a request made at `asked`: what the socket said since is as new (a
   * table made while the request was on its way), so it stands.
   * @param {QuickMatchState} state
   * @param {number} asked
   */
  told(state, asked) {
    if (this.source.quickmatchAt > asked) return;
    this.source.quickmatch = state;
    this.source.quickmatchAt = performance.now();
  }
}
