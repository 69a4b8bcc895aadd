// Stepping through an ended game (/replay/{id}), whatever the game: every step's views
// and events from GET /api/games/{id}/replay/{n}, the steps beside the one shown
// fetched ahead; buttons, a slider and the arrow keys; the record's moves and its
// download. Each game draws a step its own way (`replay.js`, `cards/replay.js`).

import { call } from "./api.js";
import { h, s } from "./dom.js";
import { errorText, langSwitch, onLang, t } from "./i18n.js";
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
    return h("ol", { class: "moves" }, ...this.record.actions.map((/** @type {string} */ a, /** @type {number} */ i) =>
      h("li", {}, h("button", { type: "button", class: `move${i + 1 === this.step ? " current" : ""}`, onclick: () => void this.go(i + 1) }, shown(a)))));
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
    const wanted = Number(new URLSearchParams(location.search).get("step") ?? NaN);
    await this.go(Number.isInteger(wanted) ? wanted : 0);
  }
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
