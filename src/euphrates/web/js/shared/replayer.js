// Stepping through an ended game (/replay/{id}), whatever the game: every step's views
// and events from GET /api/games/{id}/replay/{n}, the steps beside the one shown
// fetched ahead; buttons, a slider and the arrow keys; the record's moves and its
// download. Each game draws a step its own way (`replay.js`, `cards/replay.js`).
// The game's review (GET …/review: each mover's chance before and after each move,
// judged from its own view then) draws a chart of every seat's chance and adds the
// chances, and a better move where one lost much, to the move list; while the server
// computes it, a calm note says so and the page asks again every few seconds.

import { call } from "./api.js";
import { h, s } from "./dom.js";
import { endBanner, hasEnd } from "./endgame.js";
import { currentLang, errorText, langSwitch, onLang, t } from "./i18n.js";
import { fatalPage, seatName } from "./pages.js";

export class Replayer {
  /**
   * @param {HTMLElement} app
   * @param {string} gameId
   * @param {{bytes: ArrayBuffer, doc: any}} record the game's record (GET …/record): the
   *   server's bytes, downloaded as they are, and the document read from them
   * @param {{bot: string, dynasty: string}} words how the game names bots
   * @param {(r: Replayer) => void} paint draws the step shown (`current`)
   */
  constructor(app, gameId, record, words, paint) {
    this.app = app;
    this.gameId = gameId;
    this.bytes = record.bytes;
    this.record = record.doc;
    this.words = words;
    this.paint = paint;
    /** @type {Map<number, Promise<any>>} */
    this.cache = new Map();
    this.steps = this.record.actions.length;
    this.step = 0;
    /** @type {any} the step shown: its views, events and the game's seats */
    this.current = null;
    /** @type {Review|{status: "pending"}|null} null: none to show (or not yet asked) */
    this.review = null;
  }

  /** The review, asked again every REVIEW_POLL ms while the server computes it. */
  async loadReview() {
    try {
      const got = await call(`/api/games/${this.gameId}/review`);
      // "none": abandoned before the end, no bots on this server, or failed: no panel
      this.review = got?.status === "none" ? null : got;
    } catch {
      this.review = null;
      this.render();
      return;
    }
    this.render();
    if (this.review?.status === "pending") setTimeout(() => void this.loadReview(), REVIEW_POLL);
  }

  /**
   * The review's panel: each seat's chance over the game, the step shown marked.
   * @returns {HTMLElement|null}
   */
  reviewPanel() {
    const review = this.review;
    if (!review) return null;
    const title = h("h2", {}, t("review.title"));
    if (review.status !== "done") {
      return h("section", { class: "panel review-panel" }, title,
        h("p", { class: "hint review-pending", role: "status" }, t("review.pending")));
    }
    const seats = Math.max(1, Number(this.record.players ?? 2));
    const W = 320;
    const H = 120;
    const last = Math.max(1, review.moves.length);
    const x = (/** @type {number} */ step) => 6 + (step / last) * (W - 12);
    const y = (/** @type {number} */ p) => H - 6 - p * (H - 12);
    const lines = Array.from({ length: seats }, (_, seat) => {
      const d = review.moves.filter((m) => m.seat === seat)
        .map((m, i) => `${i ? "L" : "M"}${x(m.index).toFixed(1)} ${y(m.before).toFixed(1)}L${x(m.index + 1).toFixed(1)} ${y(m.after).toFixed(1)}`)
        .join("");
      return s("path", { d: d || "M0 0", fill: "none", stroke: SEAT_STROKES[seat % SEAT_STROKES.length], "stroke-width": 2,
        "stroke-dasharray": SEAT_DASHES[seat % SEAT_DASHES.length], class: "review-line", "data-seat": seat });
    });
    const marker = s("line", { x1: x(this.step), x2: x(this.step), y1: 2, y2: H - 2, class: "review-step", stroke: "#5b4636", "stroke-width": 1.5 });
    const half = s("line", { x1: 2, x2: W - 2, y1: y(0.5), y2: y(0.5), stroke: "#c2ab7c", "stroke-dasharray": "2 3" });
    const chart = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-chart", role: "img", "aria-label": t("review.chart") },
      s("rect", { x: 0, y: 0, width: W, height: H, fill: "#fffaf0", stroke: "#c2ab7c", rx: 4 }), half, ...lines, marker);
    const key = h("ul", { class: "review-key" }, ...Array.from({ length: seats }, (_, seat) =>
      h("li", {}, s("svg", { viewBox: "0 0 24 6", width: 24, height: 6, "aria-hidden": "true", focusable: "false" },
        s("line", { x1: 0, x2: 24, y1: 3, y2: 3, stroke: SEAT_STROKES[seat % SEAT_STROKES.length], "stroke-width": 2, "stroke-dasharray": SEAT_DASHES[seat % SEAT_DASHES.length] })),
      this.name(seat))));
    const move = this.step > 0 ? review.moves[this.step - 1] : undefined;
    return h("section", { class: "panel review-panel" }, title, chart, key,
      move ? h("p", { class: "review-now" }, t("review.move", { name: this.name(move.seat), before: pct(move.before), after: pct(move.after) })) : null,
      h("p", { class: "hint" }, t(review.estimate === "model" ? "review.by_model" : "review.by_evaluation")));
  }

  /** The end banner at the last step of a game that ended: its places as they count,
   * each player's rating change (docs/fair-play.md). */
  endPanel() {
    const game = this.current?.game;
    const outcome = this.current?.views?.spectator?.outcome;
    if (this.step !== this.steps || !game || !hasEnd(game, outcome)) return null;
    return endBanner(outcome, (x) => this.name(x), game);
  }

  /** @param {number} n */
  fetchStep(n) {
    let p = this.cache.get(n);
    if (!p) {
      p = call(`/api/games/${this.gameId}/replay/${n}`);
      this.cache.set(n, p);
      p.catch(() => this.cache.delete(n));
    }
    return p;
  }

  /** @param {number} seat */
  name(seat) {
    return seatName(this.current?.game?.seats?.[seat], seat, this.words, this.record.seats?.[seat]);
  }

  /** @param {string} message */
  fatal(message) {
    fatalPage(this.app, message);
  }

  /** @param {number} n */
  async go(n) {
    n = Math.max(0, Math.min(this.steps, n));
    this.step = n;
    try {
      const doc = await this.fetchStep(n);
      // Another step was asked for meanwhile: that one is shown.
      if (this.step !== n) return;
      this.current = doc;
    } catch (e) {
      this.fatal(errorText(e));
      return;
    }
    this.render();
    if (n + 1 <= this.steps) void this.fetchStep(n + 1);
    if (n > 0) void this.fetchStep(n - 1);
  }

  render() {
    if (this.current) this.paint(this);
  }

  /**
   * The header: the game's name, the step shown.
   * @param {string} title the game's name
   */
  header(title) {
    return h("header", { class: "top table-top" },
      h("a", { href: "/", class: "home" }, t(title)),
      h("span", { class: "status" }, `${t("replay.title")} · ${t("replay.step", { n: this.step, m: this.steps })}`),
      langSwitch());
  }

  /**
   * The buttons, the slider, the step's log entry and the download.
   * @param {import("./logtabs.js").StepEntry} entry the game's words for a step
   * @param {import("./logtabs.js").LogNames} names
   */
  controls(entry, names) {
    const step = this.step;
    const steps = this.steps;
    const events = this.current.events;
    const stepView = events?.length
      ? entry({ version: step, kind: "action", seat: null, events }, names, false)
      : [h("li", {}, t("replay.begin"))];
    const button = (/** @type {string} */ label, /** @type {number} */ to, /** @type {"first"|"prev"|"next"|"last"} */ id) =>
      h("button", { type: "button", id, class: `step-${id}`, disabled: to < 0 || to > steps || to === step, onclick: () => void this.go(to) },
        ...(id === "next" || id === "last" ? [label, stepIcon(id)] : [stepIcon(id), label]));
    const slider = h("input", {
      type: "range", min: 0, max: steps, value: step, "aria-label": t("replay.step", { n: step, m: steps }),
      oninput: (/** @type {Event} */ e) => void this.go(Number(/** @type {HTMLInputElement} */ (e.target).value)),
    });
    return h("section", { class: "panel replay-controls" },
      h("div", { class: "row" },
        button(t("replay.start"), 0, "first"), button(t("replay.back"), step - 1, "prev"),
        button(t("replay.forward"), step + 1, "next"), button(t("replay.end"), steps, "last")),
      slider,
      h("ol", { class: "log" }, ...stepView),
      h("button", { type: "button", onclick: () => this.download() }, t("replay.download")));
  }

  /**
   * The record's moves, each a button to its step.
   * @param {(action: string) => string} shown an action as the log shows it
   */
  moves(shown) {
    const review = this.review?.status === "done" ? /** @type {Review} */ (this.review) : null;
    return h("ol", { class: review ? "moves reviewed" : "moves" }, ...this.record.actions.map((/** @type {string} */ a, /** @type {number} */ i) => {
      const button = h("button", { type: "button", class: `move${i + 1 === this.step ? " current" : ""}`, onclick: () => void this.go(i + 1) }, shown(a));
      const m = review?.moves[i];
      if (!m) return h("li", {}, button);
      if (!m.best) return h("li", {}, button, h("span", { class: "chance" }, pct(m.after)));
      // a flagged move: who played it, its chance, the better move's, and why, in words
      const words = m.words?.[currentLang()] ?? {};
      return h("li", { class: "flagged" }, button,
        h("span", { class: "mover" }, this.name(m.seat)),
        h("span", { class: "chance" }, pct(m.after)),
        h("span", { class: "better" }, t("review.better", { move: words.better ?? shown(m.best.action), value: pct(m.best.after) })),
        words.why ? h("span", { class: "why" }, words.why) : null);
    }));
  }

  /** The record as the server sent it: never written back from the document read,
   * whose seed is no longer a number (js/json.js). */
  download() {
    const blob = new Blob([this.bytes], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `euphrates-${this.gameId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  }

  /** Keys and languages, then the step asked for in the address (`?step=n`), else the first. */
  async start() {
    /** @type {Record<string, () => number>} */
    const keys = {
      ArrowLeft: () => this.step - 1, ArrowRight: () => this.step + 1, Home: () => 0, End: () => this.steps,
    };
    document.addEventListener("keydown", (e) => {
      if (/** @type {HTMLElement} */ (e.target).closest("input, textarea, select")) return;
      const to = Object.hasOwn(keys, e.key) ? keys[e.key] : undefined;
      if (!to || e.ctrlKey || e.metaKey || e.altKey) return;
      // The keys step the game; the page stays where it is (Home and End would scroll it).
      e.preventDefault();
      void this.go(to());
    });
    onLang(() => this.render());
    void this.loadReview();
    const wanted = Number(new URLSearchParams(location.search).get("step") ?? NaN);
    await this.go(Number.isInteger(wanted) ? wanted : 0);
  }
}

/**
 * A game's review as the server sends it (server/reviews.py).
 * @typedef {{index: number, seat: number, name?: string, action: string, before: number, after: number, best: {action: string, after: number}|null, words?: Record<string, {move?: string, better?: string, why?: string}>}} ReviewMove
 * @typedef {{status: "done", game: string, players: number, estimate: string, moves: ReviewMove[]}} Review
 */

/** Milliseconds between asks while the review is computed. */
const REVIEW_POLL = 3000;

/** Each seat's line in the review's chart: a colour and a dash, so that neither alone tells them apart. */
const SEAT_STROKES = ["#1f5f8b", "#b0452a", "#3f7a34", "#7a4a8c"];
const SEAT_DASHES = ["", "6 3", "2 2", "8 3 2 3"];

/** @param {number} p a chance, 0 … 1 */
function pct(p) {
  return `${Math.round(100 * p)}\u202f%`;
}

/** The step buttons' symbols, drawn: ⏮ and ⏭ are missing from many fonts. */
const STEP_PATHS = {
  first: "M2 2h2v10H2zM12 2v10L5 7z",
  prev: "M11 2v10L4 7z",
  next: "M3 2v10l7-5z",
  last: "M10 2h2v10h-2zM2 2v10l7-5z",
};

/** @param {keyof STEP_PATHS} which */
function stepIcon(which) {
  return s("svg", { viewBox: "0 0 14 14", width: 14, height: 14, class: "step-icon", "aria-hidden": "true", focusable: "false" },
    s("path", { d: STEP_PATHS[which], fill: "currentColor" }));
}
