// The lobby's "Quick match" (docs/server.md, Quick match): a button per game that puts
// the account in the pool for a 2-player game now; while it waits, for how long and
// how wide the window of ratings is by now (it widens with the wait, by the rule the
// server sends), and a cancel; once paired, to the table at once. What it shows comes
// from the lobby's WebSocket and the answers to its own requests.

import { call } from "./api.js";
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";

/** @typedef {import("./lobbynet.js").QuickMatchState} QuickMatchState */
/** @typedef {{quickmatch: QuickMatchState|null, quickmatchAt: number}} QuickSource */

const GAMES = /** @type {const} */ (["board", "cards"]);

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

export class QuickMatchPanel {
  /** @param {QuickSource} source the lobby's socket */
  constructor(source) {
    this.source = source;
    this.slot = h("div", { class: "quick-slot" });
    /** @type {string|null} */
    this.error = null;
    this.busy = false;
    /** A wait ended unpaired while this page watched (not by its own cancel). */
    this.ended = false;
    this.cancelling = false;
    /** This page asked for a match and has not been to it yet. */
    this.asked = false;
    /** @type {QuickMatchState|null} */
    this.last = null;
    this.signedIn = false;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.ticker = undefined;
    /** @type {(() => void)|null} */
    this.tick = null;
  }

  /**
   * Draw again: a state told, signed in or out, the language changed.
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
    this.draw();
  }

  draw() {
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.tick = null;
    const s = this.signedIn ? this.source.quickmatch : null;
    const body = !this.signedIn
      ? h("p", { class: "hint" }, t("quick.sign_in"))
      : s?.state === "waiting" ? this.waiting(s)
        : s?.state === "matched" && s.match ? this.matched(s.match)
          : this.buttons();
    this.slot.replaceChildren(h("section", { class: "card quick-match", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, t("quick.title")),
      h("p", { class: "hint" }, t("quick.hint")),
      body,
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      this.ended && s?.state === "idle" ? h("p", { class: "hint", role: "status" }, t("quick.ended")) : null));
  }

  buttons() {
    return h("ul", { class: "quick-games" }, ...GAMES.map((game) => h("li", { class: "quick-game" },
      h("span", { class: "game-name" }, t(`lobby.${game}`)),
      h("button", {
        type: "button", class: "primary quick-play", "data-game": game, disabled: this.busy,
        "aria-label": t("quick.play_game", { game: t(`lobby.${game}`) }),
        onclick: () => void this.join(game),
      }, t("quick.play")))));
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
        h("span", { class: "spinner", "aria-hidden": "true" }), t("quick.looking", { game: t(`lobby.${s.game ?? "board"}`) })),
      h("p", { class: "quick-meta" }, timer, " · ", wide,
        s.rating !== undefined ? ` · ${t("quick.rating", { n: s.rating })}` : ""),
      h("button", { type: "button", class: "quick-cancel", disabled: this.busy, onclick: () => void this.leave() },
        t("quick.cancel")));
  }

  /** @param {NonNullable<QuickMatchState["match"]>} match */
  matched(match) {
    return h("div", { class: "quick-found" },
      h("p", { role: "status" }, t("quick.found", { name: match.opponent ?? "?" }),
        " ", h("a", { class: "button small", href: match.link }, t("quick.to_table"))),
      this.buttons());
  }

  /** @param {"board"|"cards"} game */
  async join(game) {
    this.error = null;
    this.ended = false;
    this.busy = true;
    this.asked = true;
    this.draw();
    const asked = performance.now();
    try {
      this.told(await call("/api/quickmatch", { method: "POST", body: { game } }), asked);
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
    this.draw();
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
   * pair made while the request was on its way), so it stands.
   * @param {QuickMatchState} state
   * @param {number} asked
   */
  told(state, asked) {
    if (this.source.quickmatchAt > asked) return;
    this.source.quickmatch = state;
    this.source.quickmatchAt = performance.now();
  }
}
