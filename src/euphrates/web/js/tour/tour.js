// The guided first game (docs/tour.md): a callout beside the part of the real table
// each lesson is about, telling the learner what to do; the learner makes the move
// on the table, the server takes only the line's move (it refuses any other, and the
// lit ring shows where). Ordinary moves between lessons are played for the learner
// through the same connection. Loaded only on a tour's table.

import { call } from "../shared/api.js";
import { ServerError } from "../shared/net.js";
import { h, stylesheet } from "../shared/dom.js";
import { useTexts, onLang, t } from "../shared/i18n.js";
import { spotWords } from "../cards/words.js";

/**
 * What the server tells the learner's page (GET /api/games/{id}/tour).
 * @typedef {{version: number, key: string}} TourStep
 * @typedef {{game: string, version: number, length: number, steps: TourStep[], action: string|null}} TourNow
 * @typedef {{conn: import("../shared/net.js").Connection, gameId: string, game: string, tokens: string[]}} TourOptions
 */

await useTexts("tour");
const styled = stylesheet("/static/css/tour.css");

const INTRO_PAGES = 3;
const GAP = 12;

/**
 * Start the tour on a table; its `update` is called after every drawing.
 * @param {TourOptions} opts
 */
export async function startTour(opts) {
  await styled;
  return new Tour(opts);
}

/**
 * The words and the place of the move expected now, read from its notation.
 * @param {string} game
 * @param {string} action
 * @returns {{params: Record<string, string>, target: string|null}}
 */
export function moveTarget(game, action) {
  const commit = /^commit (\d+)$/.exec(action);
  if (commit) return { params: { n: commit[1] ?? "0" }, target: ".panel.decision" };
  const monument = /^monument ([rbgk])([rbgk]) /.exec(action);
  if (monument && monument[1] && monument[2]) {
    return { params: { what: `${t(`tour.c.${monument[1]}`)}-${t(`tour.c.${monument[2]}`)}` }, target: ".panel.decision" };
  }
  if (game === "board") {
    const m = /^([rbgkPFTK])([A-P]\d{1,2})$/.exec(action);
    if (m && m[1] && m[2]) {
      const what = /[rbgk]/.test(m[1]) ? t(`tour.c.${m[1]}`) : t(`tour.l.${m[1]}`);
      return { params: { what, square: m[2] }, target: `svg.board .hit rect[data-sq="${m[2]}"]` };
    }
    return { params: {}, target: ".panel.decision" };
  }
  const card = /^([rbgk])(\d)$/.exec(action);
  if (card && card[1] && card[2]) {
    return { params: { what: t(`tour.c.${card[1]}`), spot: card[2] }, target: `svg.layout .hit [data-col="${card[2]}"]:not([data-spot])` };
  }
  const bridge = /^([rbgk])(\d-\d)$/.exec(action);
  if (bridge && bridge[1] && bridge[2]) {
    return { params: { what: t(`tour.c.${bridge[1]}`), spot: bridge[2] }, target: `svg.layout .hit [data-gap="${bridge[2]}"]` };
  }
  const leader = /^([PFTK])(\d\.\d|\d-\d)$/.exec(action);
  if (leader && leader[1] && leader[2]) {
    // the place as the table names it ("the head of column 1"), not its notation ("1.0")
    return { params: { what: t(`tour.l.${leader[1]}`), spot: spotWords(leader[2]) }, target: `svg.layout .hit [data-spot="${leader[2]}"]` };
  }
  return { params: {}, target: ".panel.decision" };
}

class Tour {
  /** @param {TourOptions} opts */
  constructor(opts) {
    this.conn = opts.conn;
    this.gameId = opts.gameId;
    this.game = opts.game;
    this.tokens = opts.tokens;
    /** the introduction's page, 1 … INTRO_PAGES; 0 once past it */
    this.intro = 1;
    /** @type {string|null} a lesson's closing note, waiting for Next */
    this.note = null;
    /** @type {Set<string>} lessons whose note was shown */
    this.done = new Set();
    /** @type {TourNow|null} */
    this.now = null;
    this.asked = -1;
    this.playing = false;
    this.closed = false;
    /** @type {string|null} where the callout points: a selector */
    this.target = null;
    this.box = h("aside", { class: "tour", role: "dialog", "aria-live": "polite", "aria-label": t("tour.label") });
    this.ring = h("div", { class: "tour-ring", "aria-hidden": "true" });
    document.body.append(this.ring, this.box);
    this.refusedAt(opts.conn);
    onLang(() => this.draw());
    addEventListener("resize", () => this.place());
    addEventListener("scroll", () => this.place(), true);
    this.draw();
  }

  /**
   * A move the tour refuses (`tour_step`) is answered with the move it waits for, in
   * the page's words (as `tour_move`, which i18n.js shows as it is): the step's own
   * instruction, its place lit.
   * @param {import("../shared/net.js").Connection} conn
   */
  refusedAt(conn) {
    const act = conn.act.bind(conn);
    conn.act = async (seat, action) => {
      try {
        return await act(seat, action);
      } catch (e) {
        if (!(e instanceof ServerError) || e.code !== "tour_step") throw e;
        const c = this.content();
        throw new ServerError("tour_move", c.action ? t("tour.refused", { step: c.text }) : t("err.tour_step"), e.ruling);
      }
    };
  }

  /** After every drawing of the table: ask what the tour expects at a new version. */
  update() {
    if (this.closed) return;
    const v = this.conn.version;
    if (v >= 0 && v !== this.asked) {
      this.asked = v;
      void this.ask(v);
    }
    this.draw();
    // the table draws at the next animation frame: point at what it drew
    requestAnimationFrame(() => requestAnimationFrame(() => this.place()));
  }

  /** @param {number} v */
  async ask(v) {
    /** @type {TourNow} */
    let now;
    try {
      now = await call(`/api/games/${this.gameId}/tour`, { tokens: this.tokens });
    } catch {
      this.asked = -1; // asked again at the next drawing
      return;
    }
    if (this.closed || now.version !== this.conn.version || v !== this.conn.version) return;
    this.now = now;
    this.closeLessons();
    this.draw();
    this.autoPlay();
  }

  /** The lessons (the steps' first words), in the line's order. */
  lessons() {
    const keys = (this.now?.steps ?? []).map((s) => s.key.split(".")[0] ?? s.key);
    return [...new Set(keys)];
  }

  /** A lesson is over once its last step is behind and the learner moves again (the
   * opponent's answers, a defender's commitment, came in between): its note shows. */
  closeLessons() {
    const now = this.now;
    if (!now || (now.action === null && !this.over())) return;
    for (const lesson of this.lessons()) {
      if (this.done.has(lesson)) continue;
      const last = Math.max(...now.steps.filter((s) => s.key.split(".")[0] === lesson).map((s) => s.version));
      if (now.version > last) {
        this.done.add(lesson);
        this.note = lesson;
      }
    }
  }

  over() {
    return this.conn.game?.status === "over";
  }

  /** The step the learner must play now, if the move expected now is a lesson's. */
  step() {
    const now = this.now;
    if (!now || now.action === null || now.version !== this.conn.version) return null;
    return now.steps.find((s) => s.version === now.version) ?? null;
  }

  /** An ordinary move of the learner's, played for them once nothing waits for Next. */
  autoPlay() {
    const now = this.now;
    if (this.closed || this.playing || this.intro || this.note || this.over()) return;
    if (!now || now.action === null || this.step()) return;
    this.playing = true;
    this.conn.act(0, now.action).catch(() => {
      this.asked = -1;
    }).finally(() => {
      this.playing = false;
    });
  }

  next() {
    if (this.intro) this.intro = this.intro >= INTRO_PAGES ? 0 : this.intro + 1;
    else this.note = null;
    this.draw();
    this.autoPlay();
  }

  back() {
    if (this.intro > 1) this.intro -= 1;
    this.draw();
  }

  /** @param {boolean} leave back to the lobby (Skip), or stay at the ended table */
  close(leave) {
    this.closed = true;
    this.box.remove();
    this.ring.remove();
    if (leave) location.assign("/");
  }

  /**
   * The final scoring in one sentence from the learner's side: the weakest colours
   * (after the treasures) that decided it, and who won.
   * @returns {string}
   */
  final() {
    /** @type {import("../shared/types.js").Outcome|null|undefined} */
    const out = this.conn.views["0"]?.outcome;
    if (!out) return "";
    const weakest = (/** @type {number} */ s) => Math.min(...(out.totals[s] ?? [0]));
    const [mine, theirs] = [weakest(0), weakest(1)];
    if (out.winners.includes(0)) return t("tour.final_won", { mine, theirs });
    return t(mine === theirs ? "tour.final_tie" : "tour.final_lost", { mine, theirs });
  }

  /**
   * Whether the learner scored in the lesson's own moves (the table's events of the
   * versions its steps were played at).
   * @param {string} lesson
   */
  scored(lesson) {
    const versions = new Set((this.now?.steps ?? []).filter((s) => s.key.split(".")[0] === lesson).map((s) => s.version + 1));
    return this.conn.history.some((step) => versions.has(step.version)
      && step.events.some((e) => e.kind === "scored" && e.seat === 0));
  }

  /**
   * How the lesson's conflict ended for the learner, from the table's own events (the
   * last revolt's or war's result): who won, by how much, and why, so that a lost
   * conflict is never left unexplained.
   * @param {string} lesson
   * @returns {string}
   */
  outcome(lesson) {
    if (lesson !== "revolt" && lesson !== "war") return "";
    const kinds = lesson === "war" ? ["war_result"] : ["revolt_result"];
    for (const step of [...this.conn.history].reverse()) {
      const e = [...step.events].reverse().find((x) => kinds.includes(x.kind)
        || (x.kind === "conflict_resolved" && x.conflict === lesson));
      if (!e) continue;
      if (e.winner !== 0 && e.loser !== 0) return "";
      // the board says each side's total, the cards [attacker, defender]
      const [a, d] = e.kind === "conflict_resolved"
        ? [Number(e.attacker_total), Number(e.defender_total)]
        : [Number(e.strength?.[0] ?? 0), Number(e.strength?.[1] ?? 0)];
      const attacking = e.winner === 0 ? a > d : e.loser === 0 && a <= d;
      const [mine, theirs] = attacking ? [a, d] : [d, a];
      if (e.winner === 0) return t("tour.won", { mine, theirs });
      return t(mine === theirs ? "tour.lost_tie" : "tour.lost", { mine, theirs });
    }
    return "";
  }

  /**
   * What the callout says now, where it points, and its buttons.
   * @returns {{key: string, text: string, target: string|null, action: string|null, buttons: HTMLElement[]}}
   */
  content() {
    const g = this.game;
    const btn = (/** @type {string} */ key, /** @type {() => void} */ f, cls = "") =>
      h("button", { type: "button", class: `tour-${key.split(".")[1]} ${cls}`.trim(), onclick: f }, t(key));
    const skip = btn("tour.skip", () => this.close(true));
    if (this.over()) {
      const text = [t(`${g}.end`), this.final()].filter(Boolean).join(" ");
      return { key: "end", text, target: ".panel.scoring", action: null,
        buttons: [btn("tour.finish", () => this.close(false), "primary")] };
    }
    if (this.intro) {
      const target = this.intro === 1 ? "svg.board, svg.layout" : this.intro === 2 ? ".hand-slot" : null;
      const buttons = [skip, btn("tour.next", () => this.next(), "primary")];
      if (this.intro > 1) buttons.unshift(btn("tour.back", () => this.back()));
      return { key: `intro.${this.intro}`, text: t(`${g}.intro.${this.intro}`), target, action: null, buttons };
    }
    if (this.note) {
      const last = this.done.size === this.lessons().length;
      // a tile's note praises a point only where the tile scored one
      const key = this.note === "tile" && g === "board" && !this.scored("tile") ? "tile.done_none" : `${this.note}.done`;
      const text = [t(`${g}.${key}`), this.outcome(this.note)].filter(Boolean).join(" ");
      return { key: `${this.note}.done`, text, target: null, action: null,
        buttons: [skip, btn(last ? "tour.to_end" : "tour.next", () => this.next(), "primary")] };
    }
    const step = this.step();
    const action = this.now?.action ?? null;
    if (step && action) {
      const { params, target } = moveTarget(g, action);
      return { key: step.key, text: t(`${g}.${step.key}`, params), target, action, buttons: [skip] };
    }
    return { key: "auto", text: t("tour.auto"), target: null, action: null, buttons: [skip] };
  }

  draw() {
    if (this.closed) return;
    const c = this.content();
    const lessons = this.lessons().length;
    const at = Math.min(this.done.size + (this.note ? 0 : 1), lessons);
    this.box.setAttribute("data-step", c.key);
    this.box.setAttribute("data-version", String(this.now?.version ?? -1));
    if (c.action) this.box.setAttribute("data-action", c.action);
    else this.box.removeAttribute("data-action");
    this.box.replaceChildren(
      h("p", { class: "tour-title" }, t("tour.label"), lessons && !this.intro ? ` · ${t("tour.progress", { n: at, of: lessons })}` : ""),
      h("p", { class: "tour-text" }, c.text),
      ...(c.action ? [h("p", { class: "tour-notation" }, t("tour.notation", { action: c.action }))] : []),
      h("div", { class: "tour-buttons row" }, ...c.buttons));
    this.target = c.target;
    this.place();
  }

  /** The callout beside its target (right, else left, else below), kept on screen. */
  place() {
    if (this.closed) return;
    const el = this.target ? document.querySelector(this.target) : null;
    const box = this.box.getBoundingClientRect();
    const vw = innerWidth;
    const vh = innerHeight;
    if (!el) {
      this.ring.hidden = true;
      this.box.style.left = `${Math.max(GAP, vw - box.width - GAP)}px`;
      this.box.style.top = `${Math.max(GAP, vh - box.height - GAP)}px`;
      return;
    }
    const r = el.getBoundingClientRect();
    this.ring.hidden = false;
    Object.assign(this.ring.style, { left: `${r.left - 4}px`, top: `${r.top - 4}px`, width: `${r.width + 8}px`, height: `${r.height + 8}px` });
    let left = r.right + GAP;
    let top = r.top;
    if (left + box.width > vw - GAP) left = r.left - box.width - GAP;
    if (left < GAP) {
      left = Math.min(Math.max(GAP, r.left), vw - box.width - GAP);
      top = r.bottom + GAP;
      if (top + box.height > vh - GAP) top = r.top - box.height - GAP;
    }
    this.box.style.left = `${Math.max(GAP, left)}px`;
    this.box.style.top = `${Math.min(Math.max(GAP, top), Math.max(GAP, vh - box.height - GAP))}px`;
  }
}
