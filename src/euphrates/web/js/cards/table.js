// The card-game table (Contest of Kings): the layout of eight columns and seven gaps,
// the hand of the seat shown, one panel per decision, the seats with their point
// piles, the move log and the chat. Everything shown comes from the server's views
// and events; spots light up only from the view's `legal`.

import { fill, h, stylesheet } from "../shared/dom.js";
import { useTexts, t, tt } from "../shared/i18n.js";
import { Seating } from "../shared/seating.js";
import { LAYOUT_WIDTH, LayoutDrawing } from "./draw.js";
import { Zoom } from "../shared/zoom.js";
import { kingdomInfo } from "./info.js";
import { conflictLine } from "../shared/panels.js";
import { parseLegal } from "./legal.js";
import { CARD_LETTER, LEADER_LETTER, kingdomOf, leaderOf, parseSpot, publicPart, spotColumn } from "./model.js";
import { conflictOf, decisionPanel, handPanel, seatsPanel, tableStrip } from "./panels.js";
import { scoringPanel } from "./scoring.js";
import { notSeen } from "../shared/follow.js";
import { WORDS, actionWords, stepEntry, touched } from "./words.js";

await useTexts("pages-cards");
const styled = stylesheet("/static/css/cards.css");

/** @typedef {import("../shared/types.js").TableHost} TableHost */
/** @typedef {import("../shared/types.js").TableModule} TableModule */
/** @typedef {import("./model.js").CardsView} CardsView */
/** @typedef {import("./panels.js").Selection} Selection */
/** @typedef {import("./panels.js").Ui} Ui */
/** @typedef {import("./legal.js").Legal} Legal */

export { WORDS };

/**
 * @param {TableHost} host
 * @returns {Promise<TableModule>}
 */
export async function createTable(host) {
  await styled;
  return new CardsTable(host);
}

/** @type {import("../shared/seating.js").Parts<CardsView, Selection, Legal, Ui>} */
const PARTS = {
  words: WORDS,
  entry: stepEntry, parseLegal, handPanel, seatsPanel, touched, shown: actionWords,
  places: (action) => new Set(action.match(/[1-8]\.[0-8]|[1-7]-[2-8]/g) ?? []),
  turnOf: (view, d) => {
    const left = Number(view.actions_left ?? 0);
    return { active: view.active ?? d.seat, phase: left > 0 ? t("table.action_n", { n: Math.min(2, 3 - left) }) : t("cards.turn_end") };
  },
  counter: (view) => h("span", { class: "bag-counts" },
    h("span", { class: "bag", title: t("cards.deck_hint") }, `${t("cards.deck")}: ${view.deck_count ?? 0}`),
    notSeen(view.not_seen, "follow.unseen_cards")),
  colourKey: (c, legal) => legal.cards.has(c) ? { kind: "card", colour: c } : null,
  leaderKey: (l, legal) => legal.leaders.has(l) ? { kind: "leader", leader: l } : null,
  // Nobody's hand shown: the public part, a face-down bridge as its back.
  unseen: (view) => publicPart(view, null),
};

/** @extends {Seating<CardsView, Selection, Legal, Ui>} */
class CardsTable extends Seating {
  /** @param {TableHost} host */
  constructor(host) {
    super(host, PARTS);
    /** @type {number|null} the hovered column (from 0) */
    this.hoverCol = null;
    /** The decision pending at each version seen live, to name a "no" in the log. @type {Map<number, string>} */
    this.decisions = new Map();

    this.drawing = new LayoutDrawing((key, params) => t(key, params));
    this.info = h("div", { class: "square-info kingdom-info", "aria-live": "polite" });
    this.strip = h("div", { class: "strip-slot" });
    this.final = h("div", { class: "final-slot" });
    const hit = this.drawing.hit;
    /** @param {Element} el */
    const hover = (el) => {
      const spot = el.getAttribute("data-spot");
      const col = spot ? spotColumn(spot) : Number(el.getAttribute("data-col") ?? el.getAttribute("data-gap")?.[0] ?? 0) - 1;
      const at = col >= 0 ? col : null;
      if (at !== this.hoverCol) {
        this.hoverCol = at;
        this.renderMarks();
      }
    };
    hit.addEventListener("click", (e) => {
      // A tap shows the kingdom too, where there is no hover (touch screens).
      hover(/** @type {Element} */ (e.target));
      this.clickTarget(/** @type {Element} */ (e.target));
    });
    // A finger's moves pan the zoomed layout and its lifting leaves it: neither
    // changes what a tap showed.
    hit.addEventListener("pointermove", (e) => {
      if (e.pointerType !== "touch") hover(/** @type {Element} */ (e.target));
    });
    hit.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "touch") return;
      this.hoverCol = null;
      this.renderMarks();
    });
    const frame = h("div", { class: "layout-wrap" }, this.drawing.svg);
    // Zoomed, a card is 46 px wide (76 units at 0.6).
    this.zoom = new Zoom(frame, 0.6, LAYOUT_WIDTH);
    fill(host.root,
      this.header,
      this.banner,
      h("main", { class: "table-layout cards-table" },
        h("section", { class: "board-area layout-area" }, frame,
          h("div", { class: "board-tools" }, this.info, this.zoom.button), this.strip, this.final),
        this.side()));
  }

  /** The log names the decision a "no" answered, from the decisions seen live. */
  declined() {
    return (/** @type {number} */ v) => this.decisions.get(v - 1) ?? null;
  }

  // --- picking ------------------------------------------------------------------------
  /** @param {Selection|null} sel */
  select(sel) {
    this.sel = sel;
    this.message = null;
    const targets = this.targetList();
    if (sel && !targets.length) this.message = t("cards.no_targets");
    this.cursor = sel && targets.length ? targets[0] ?? null : null;
    this.renderNow();
  }

  /** @param {Ui} ui */
  gameTargets(ui) {
    if (this.sel?.kind === "card") return ui.legal.cards.get(this.sel.colour) ?? new Set();
    return new Set(ui.legal.exchanges.map((c) => `${c}.0`));
  }

  /** The targets in reading order: heads and columns left to right, then rows, then gaps. */
  targetList() {
    const order = (/** @type {string} */ x) => {
      const p = parseSpot(x);
      if (/^[1-8]$/.test(x)) return Number(x) * 100 + 50;
      if (!p) return 0;
      if (p.kind === "bridge") return (p.gap + 1) * 100 + 99;
      return (p.col + 1) * 100 + (p.kind === "head" ? 0 : p.row);
    };
    return [...this.targets()].sort((a, b) => order(a) - order(b));
  }

  /**
   * A click on the layout: what it means depends on what is picked.
   * @param {Element} el
   */
  clickTarget(el) {
    const ui = this.ui;
    if (!ui) return;
    const spot = el.getAttribute("data-spot");
    const col = el.getAttribute("data-col");
    const gap = el.getAttribute("data-gap");
    const sel = this.sel;
    if (sel?.kind === "card") {
      const target = gap ?? col;
      // A click off the lit places is sent all the same: the server's refusal, with
      // its ruling, says why better than a silent nothing would.
      if (target) this.act(`${CARD_LETTER[sel.colour]}${target}`);
      return;
    }
    if (sel?.kind === "leader" && spot) {
      this.act(`${LEADER_LETTER[sel.leader]}${spot}`);
      return;
    }
    if (sel?.kind === "catastrophe" && spot) {
      this.act(`x${spot}`);
      return;
    }
    if (!ui.deciding || !spot) return;
    const head = /^([1-8])\.0$/.exec(spot);
    if (ui.legal.exchanges.length && head) {
      this.act(`exchange ${head[1]}`);
      return;
    }
    // One's own leader on the layout picks it for a move.
    const me = ui.me;
    if (me === null) return;
    const own = Object.entries(ui.view.leaders?.[me] ?? {}).find(([, at]) => at === spot);
    const leader = own ? leaderOf(own[0]) : null;
    if (leader && ui.legal.leaders.get(leader)?.size) this.select({ kind: "leader", leader });
  }

  // --- keyboard -----------------------------------------------------------------------
  /**
   * The arrows walk the lit places in reading order.
   * @param {KeyboardEvent} e
   */
  arrow(e) {
    const list = this.targetList();
    if (!list.length) return;
    e.preventDefault();
    const at = this.cursor ? list.indexOf(this.cursor) : -1;
    const step = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
    this.cursor = list[(at + step + list.length) % list.length] ?? null;
    this.renderMarks();
  }

  /** @param {string} target a spot, a column or a gap */
  clickCursor(target) {
    const sel = this.sel;
    if (sel?.kind === "card") this.act(`${CARD_LETTER[sel.colour]}${target}`);
    else if (sel?.kind === "leader") this.act(`${LEADER_LETTER[sel.leader]}${target}`);
    else if (sel?.kind === "catastrophe") this.act(`x${target}`);
    else if (/^[1-8]\.0$/.test(target) && this.ui?.legal.exchanges.length) this.act(`exchange ${target[0]}`);
  }

  // --- module interface ---------------------------------------------------------------
  /** Each version's pending decision is noted as it arrives, drawn or not. */
  render() {
    const view = this.anyView();
    if (view?.decision && !this.decisions.has(view.version)) this.decisions.set(view.version, view.decision.kind);
    super.render();
  }

  /**
   * @param {Ui} ui
   * @param {import("../shared/types.js").GameMeta} game
   */
  paintGame(ui, game) {
    const shownView = ui.view;
    this.drawing.render(shownView);
    this.drawing.svg.dataset.version = String(this.conn.version);
    this.renderMarks();
    fill(this.strip, tableStrip(shownView));
    const outcome = shownView.outcome;
    // The final scoring is wide: it goes under the layout, where there is room.
    fill(this.final, outcome ? scoringPanel(outcome, (s) => this.name(s), this.endReason()) : null);
    // A duel ended by a player leaving has no outcome, but is over all the same.
    const ended = outcome || game.status === "over" || game.status === "aborted";
    fill(this.decision,
      ended ? h("a", { class: "button primary", href: `/replay/${game.id}` }, t("table.replay")) : decisionPanel(ui));
  }

  /** Why the game ended, from the history's game_over event. */
  endReason() {
    for (let i = this.conn.history.length - 1; i >= 0; i--) {
      const e = this.conn.history[i]?.events.find((x) => x.kind === "game_over");
      if (e) return String(e.reason ?? "");
    }
    return null;
  }

  renderMarks() {
    const ui = this.ui;
    if (!ui) return;
    const view = ui.view;
    const lay = view.layout;
    const last = new Set();
    for (const x of this.changedPlaces()) {
      const m = /^card:(\d)$/.exec(x);
      if (!m) last.add(x);
      else {
        const len = lay.columns[Number(m[1]) - 1]?.length ?? 0;
        if (len) last.add(`${m[1]}.${len}`);
      }
    }
    const d = view.decision;
    const conflict = new Set();
    if (d?.kind === "commit") {
      const c = conflictOf(view, d.context ?? {});
      const letter = LEADER_LETTER[c.leader];
      for (const seat of [c.attacker, c.defender]) {
        const at = view.leaders?.[seat]?.[letter];
        if (at) conflict.add(at);
      }
    }
    let picked = null;
    if (this.sel?.kind === "leader" && ui.me !== null) picked = view.leaders?.[ui.me]?.[LEADER_LETTER[this.sel.leader]] ?? null;
    let preview = this.preview;
    if (!preview && d?.kind === "ship") {
      // The four cards a ship would replace (C-15), for every seat watching.
      const col = Number(d.context?.column ?? 0);
      const len = lay.columns[col - 1]?.length ?? 0;
      preview = new Set([0, 1, 2, 3].map((i) => `${col}.${len - i}`).filter(() => len >= 4));
    }
    const kingdom = this.hoverCol !== null ? kingdomOf(lay, this.hoverCol) : null;
    this.drawing.mark({
      targets: this.targets(), cursor: this.cursor, picked, last, kingdom, conflict,
      preview: preview ?? undefined,
    });
    fill(this.info, conflictLine(view, (s) => this.name(s)),
      kingdom ? kingdomInfo(view, kingdom, (s) => this.name(s)) : h("p", { class: "hint" }, tt("cards.hover_hint")));
    this.zoom.label();
  }
}
