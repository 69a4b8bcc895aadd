// The card-game table (Contest of Kings): the layout of eight columns and seven gaps,
// the hand of the seat shown, one panel per decision, the seats with their point
// piles, the move log and the chat. Everything shown comes from the server's views
// and events; spots light up only from the view's `legal`.

import { fill, h } from "../dom.js";
import { addTexts, langSwitch, refusal, t } from "../i18n.js";
import { findGame } from "../mygames.js";
import { ServerError } from "../net.js";
import { hostPanel } from "../board/extras.js";
import { dynastyOf } from "../board/geometry.js";
import { CARDS_EN } from "../strings/cards.en.js";
import { CARDS_DE, CARDS_DE_RULINGS, CARDS_DE_UNDO } from "../strings/cards.de.js";
import { LayoutDrawing } from "./draw.js";
import { kingdomInfo } from "./info.js";
import { parseLegal } from "./legal.js";
import { CARD_LETTER, LEADER_LETTER, kingdomOf, leaderOf, parseSpot, publicPart, spotColumn } from "./model.js";
import { conflictOf, decisionPanel, handPanel, seatsPanel, tableStrip } from "./panels.js";
import { scoringPanel } from "./scoring.js";
import { LogTabs } from "./tabs.js";
import { touched } from "./words.js";

addTexts(CARDS_EN, CARDS_DE, CARDS_DE_RULINGS, CARDS_DE_UNDO);

/** @typedef {import("../table.js").TableHost} TableHost */
/** @typedef {import("../table.js").TableModule} TableModule */
/** @typedef {import("../types.js").Step} Step */
/** @typedef {import("./model.js").CardsView} CardsView */
/** @typedef {import("./panels.js").Selection} Selection */
/** @typedef {import("./panels.js").Ui} Ui */

/**
 * @param {TableHost} host
 * @returns {Promise<TableModule>}
 */
export async function createTable(host) {
  return new CardsTable(host);
}

const KEY_COLOURS = /** @type {Record<string, import("./model.js").Colour>} */ ({ r: "red", b: "blue", g: "green", k: "black" });
const KEY_LEADERS = /** @type {Record<string, import("./model.js").Leader>} */ ({ P: "priest", F: "farmer", T: "trader", K: "king" });

class CardsTable {
  /** @param {TableHost} host */
  constructor(host) {
    this.conn = host.conn;
    this.hostToken = host.hostToken;
    /** @type {number|null} the seat whose hand this screen shows (several seats: after "show") */
    this.shown = null;
    /** @type {Selection|null} */
    this.sel = null;
    /** @type {string|null} */
    this.cursor = null;
    /** @type {number|null} the hovered column (from 0) */
    this.hoverCol = null;
    /** @type {Set<string>|null} */
    this.previewSpots = null;
    this.commit = 0;
    /** @type {string|null} */
    this.message = null;
    this.online = false;
    this.busy = false;
    this.decisionKey = "";
    /** @type {Ui|null} */
    this.ui = null;
    /** The decision pending at each version seen live, to name a "no" in the log. @type {Map<number, string>} */
    this.decisions = new Map();
    this.frame = 0;
    /** Versions received and not yet drawn, with the arrival of their frames. @type {[number, number][]} */
    this.arrivals = [];

    this.drawing = new LayoutDrawing((key, params) => t(key, params));
    this.header = h("header", { class: "top table-top" });
    this.info = h("div", { class: "square-info kingdom-info", "aria-live": "polite" });
    this.strip = h("div", { class: "strip-slot" });
    this.final = h("div", { class: "final-slot" });
    this.banner = h("div", { class: "banner" });
    this.decision = h("div", { class: "decision-slot" });
    this.hand = h("div", { class: "hand-slot" });
    this.seats = h("div", { class: "seats-slot" });
    this.tabs = h("div", { class: "tabs-slot" });
    this.hostBox = h("div", { class: "host-slot" });
    this.notice = h("p", { class: "notice", role: "alert" });
    this.logTabs = new LogTabs(this.conn, (s) => this.name(s), (v) => this.decisions.get(v - 1) ?? null,
      (m) => this.say(m), () => this.renderNow());
    this.notationInput = h("input", { type: "text", id: "notation", autocomplete: "off", spellcheck: "false", maxlength: 60 });
    this.notationLabel = h("label", { for: "notation" });
    this.notationButton = h("button", { type: "submit" });
    this.notationForm = h("form", {
      class: "notation-form row",
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = this.notationInput.value.trim();
        if (text) this.act(text, () => { this.notationInput.value = ""; });
      },
    }, this.notationLabel, this.notationInput, this.notationButton);
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
    hit.addEventListener("pointermove", (e) => hover(/** @type {Element} */ (e.target)));
    hit.addEventListener("pointerleave", () => {
      this.hoverCol = null;
      this.renderMarks();
    });
    fill(host.root,
      this.header,
      this.banner,
      h("main", { class: "table-layout cards-table" },
        h("section", { class: "board-area layout-area" }, h("div", { class: "layout-wrap" }, this.drawing.svg), this.strip, this.final, this.info),
        h("aside", { class: "side" }, this.decision, this.notice, this.hand, this.notationForm, this.seats, this.tabs, this.hostBox)));
    document.addEventListener("keydown", (e) => this.key(e));
  }

  // --- what is shown ------------------------------------------------------------------
  get held() {
    return [...this.conn.seats].sort((a, b) => a - b);
  }

  /** @returns {CardsView|null} */
  anyView() {
    const held = this.held;
    return this.conn.views[held.length ? String(held[0]) : "spectator"] ?? null;
  }

  /** The seat deciding now if this screen holds it. */
  acting() {
    const d = this.anyView()?.decision;
    return d && this.held.includes(d.seat) ? d.seat : null;
  }

  /** Whether the hand must stay covered (one screen, another seat's decision). */
  covered() {
    const held = this.held;
    if (held.length <= 1) return false;
    if (this.anyView()?.outcome) return false;
    const acting = this.acting();
    return this.shown === null || (acting !== null && acting !== this.shown);
  }

  /** The seat whose private view is shown, or null (spectator, covered). */
  perspective() {
    const held = this.held;
    if (!held.length || this.covered()) return null;
    return held.length === 1 ? /** @type {number} */ (held[0]) : this.shown;
  }

  /** @param {number} seat */
  name(seat) {
    const meta = this.conn.game?.seats?.[seat];
    // Bots are told apart by their dynasty (two bots of one level are common).
    if (meta?.kind === "bot") return t("cards.bot_name", { dynasty: t(`cards.dynasty.${dynastyOf(seat)}`), level: t(`level.${meta.level ?? "beginner"}`) });
    const name = meta?.name;
    if (!name || /^Player \d$/.test(name)) return t("player.default", { n: seat + 1 });
    return name;
  }

  /** The seat whose last action an undo would take back now: the server says so with
   * every version (`can_undo`), for the seat this screen shows. */
  undoSeat() {
    const game = this.conn.game;
    if (!game || game.status !== "active") return null;
    const seat = this.perspective();
    return seat !== null && this.conn.canUndo[String(seat)] ? seat : null;
  }

  // --- acting ---------------------------------------------------------------------------
  /**
   * @param {string} text
   * @param {() => void} [done]
   */
  act(text, done) {
    const seat = this.acting();
    if (seat === null || this.covered()) {
      this.say(refusal("wrong_seat", "", null));
      return;
    }
    if (this.busy) return;
    this.busy = true;
    const sel = this.sel;
    this.conn.act(seat, text).then(() => {
      // The update usually arrives before the ack: a card picked since stays picked.
      if (this.sel === sel) {
        this.sel = null;
        this.cursor = null;
      }
      this.message = null;
      done?.();
    }, (e) => {
      this.say(e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e));
    }).finally(() => {
      this.busy = false;
      this.renderNow();
    });
  }

  undo() {
    const seat = this.undoSeat();
    if (seat === null) return;
    this.conn.undo(seat).then(() => { this.message = null; this.sel = null; }, (e) => {
      this.say(e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e));
    }).finally(() => this.renderNow());
  }

  /** @param {string} text */
  say(text) {
    this.message = text;
    this.renderNow();
  }

  /** @param {Selection|null} sel */
  select(sel) {
    this.sel = sel;
    this.message = null;
    const targets = this.targetList();
    if (sel && !targets.length) this.message = t("cards.no_targets");
    this.cursor = sel && targets.length ? targets[0] ?? null : null;
    this.renderNow();
  }

  /** Spots lit for the current selection or decision. */
  targets() {
    const ui = this.ui;
    if (!ui || !ui.deciding) return new Set();
    const sel = this.sel;
    if (sel?.kind === "card") return ui.legal.cards.get(sel.colour) ?? new Set();
    if (sel?.kind === "leader") return ui.legal.leaders.get(sel.leader) ?? new Set();
    if (sel?.kind === "catastrophe") return ui.legal.catastrophes;
    if (ui.legal.exchanges.length) return new Set(ui.legal.exchanges.map((c) => `${c}.0`));
    return new Set();
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

  // --- keyboard -------------------------------------------------------------------------
  /** @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    const ui = this.ui;
    if (!ui) return;
    const onButton = target.closest("button, a") !== null;
    if (e.key === "Escape") {
      this.select(null);
    } else if (e.key in KEY_COLOURS && !e.shiftKey) {
      const c = /** @type {import("./model.js").Colour} */ (KEY_COLOURS[e.key]);
      if (ui.legal.cards.has(c)) this.select({ kind: "card", colour: c });
    } else if (e.key in KEY_LEADERS && e.shiftKey) {
      const l = /** @type {import("./model.js").Leader} */ (KEY_LEADERS[e.key]);
      if (ui.legal.leaders.has(l)) this.select({ kind: "leader", leader: l });
    } else if (e.key === "x" && ui.legal.catastrophes.size) {
      this.select({ kind: "catastrophe" });
    } else if (e.key === "u") {
      this.undo();
    } else if (e.key === "/" || e.key === "n") {
      e.preventDefault();
      this.notationInput.focus();
    } else if (/^[0-9]$/.test(e.key) && ui.legal.commits.length) {
      this.commit = Number(e.key);
      this.renderNow();
    } else if (e.key.startsWith("Arrow")) {
      const list = this.targetList();
      if (!list.length) return;
      e.preventDefault();
      const at = this.cursor ? list.indexOf(this.cursor) : -1;
      const step = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
      this.cursor = list[(at + step + list.length) % list.length] ?? null;
      this.renderMarks();
    } else if ((e.key === "Enter" || e.key === " ") && !onButton) {
      if (this.cursor) {
        e.preventDefault();
        this.clickCursor(this.cursor);
      } else if (ui.deciding && ui.legal.commits.length) {
        e.preventDefault();
        this.act(`commit ${Math.min(this.commit, Math.max(...ui.legal.commits))}`);
      }
    }
  }

  /** @param {string} target a spot, a column or a gap */
  clickCursor(target) {
    const sel = this.sel;
    if (sel?.kind === "card") this.act(`${CARD_LETTER[sel.colour]}${target}`);
    else if (sel?.kind === "leader") this.act(`${LEADER_LETTER[sel.leader]}${target}`);
    else if (sel?.kind === "catastrophe") this.act(`x${target}`);
    else if (/^[1-8]\.0$/.test(target) && this.ui?.legal.exchanges.length) this.act(`exchange ${target[0]}`);
  }

  // --- module interface -------------------------------------------------------------------
  /** @param {Step} step */
  step(step) {
    if (step.kind === "undo") this.sel = null;
    this.arrivals.push([step.version, this.conn.lastFrameAt]);
  }

  /** @param {import("../types.js").ChatLine} _line */
  chat(_line) {
    this.logTabs.heard();
    this.render();
  }

  /** @param {boolean} online */
  link(online) {
    this.online = online;
    this.render();
  }

  /**
   * Draw at the next frame: a burst of updates (bots moving fast, a reconnect) costs
   * one drawing, not one per version.
   */
  render() {
    const view = this.anyView();
    if (view?.decision && !this.decisions.has(view.version)) this.decisions.set(view.version, view.decision.kind);
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draw at once: the answer to the player's own click or key. */
  renderNow() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.draw();
  }

  draw() {
    this.paint();
    const now = performance.now();
    for (const [version, at] of this.arrivals.splice(0)) {
      try {
        performance.measure(`update ${version}`, { start: at, end: now });
      } catch {
        /* measuring is a convenience */
      }
    }
  }

  paint() {
    const view = this.anyView();
    const game = this.conn.game;
    this.renderHeader(view);
    if (!view || !game) return;
    const me = this.perspective();
    const own = me !== null ? this.conn.views[String(me)] ?? view : view;
    const shownView = me !== null ? own : publicPart(view, null);
    const acting = this.acting();
    const deciding = me !== null && acting === me && game.status === "active";
    const legal = parseLegal(deciding ? shownView.legal ?? [] : []);
    const dkey = `${shownView.version}:${me}`;
    if (dkey !== this.decisionKey) {
      this.decisionKey = dkey;
      this.commit = 0;
    }
    /** @type {Ui} */
    const ui = {
      view: shownView, me, deciding, legal, sel: this.sel, game,
      name: (s) => this.name(s),
      act: (text) => this.act(text),
      select: (sel) => this.select(sel),
      commit: this.commit,
      setCommit: (n) => { this.commit = n; this.renderNow(); },
      preview: (spots) => { this.previewSpots = spots; this.renderMarks(); },
    };
    this.ui = ui;
    if (this.sel && !deciding) this.sel = ui.sel = null;
    this.drawing.render(shownView);
    this.drawing.svg.dataset.version = String(this.conn.version);
    this.renderMarks();
    fill(this.strip, tableStrip(shownView));
    this.renderBanner(game);
    const outcome = shownView.outcome;
    // The final scoring is wide: it goes under the layout, where there is room.
    fill(this.final, outcome ? scoringPanel(outcome, (s) => this.name(s), this.endReason()) : null);
    fill(this.decision,
      outcome ? h("a", { class: "button primary", href: `/replay/${game.id}` }, t("table.replay")) : decisionPanel(ui));
    this.notice.textContent = this.message ?? "";
    this.notice.hidden = !this.message;
    if (me !== null) {
      const undoSeat = this.undoSeat();
      fill(this.hand, handPanel(ui), undoSeat === null ? null
        : h("button", { type: "button", class: "undo", id: "undo", title: "u", onclick: () => this.undo() }, `↶ ${t("table.undo")}`));
    } else if (this.held.length > 1 && this.covered()) {
      fill(this.hand, this.coverPanel());
    } else {
      fill(this.hand, this.held.length ? null : h("p", { class: "hint" }, t("table.spectating")));
    }
    this.notationLabel.textContent = t("table.type");
    this.notationInput.placeholder = t("cards.type_hint");
    this.notationButton.textContent = t("table.send");
    this.notationForm.hidden = !deciding;
    fill(this.seats, seatsPanel(ui, this.held));
    if (!this.tabs.firstChild) fill(this.tabs, this.logTabs.element);
    this.logTabs.render(me);
    fill(this.hostBox, this.conn.host && game.status !== "over" && game.status !== "abandoned"
      ? hostPanel(game, this.hostToken, (s) => this.name(s), (text) => this.say(text)) : null);
    document.body.dataset.version = String(this.conn.version);
  }

  /** Why the game ended, from the history's game_over event. */
  endReason() {
    for (let i = this.conn.history.length - 1; i >= 0; i--) {
      const e = this.conn.history[i]?.events.find((x) => x.kind === "game_over");
      if (e) return String(e.reason ?? "");
    }
    return null;
  }

  coverPanel() {
    const acting = this.acting();
    const who = acting !== null ? [acting] : this.held;
    const first = /** @type {number} */ (who[0]);
    return h("section", { class: "panel cover", "aria-live": "assertive" },
      h("h2", {}, t("table.cover", { name: this.name(first) })),
      h("p", { class: "hint" }, t("cards.cover_hint", { name: this.name(first) })),
      ...who.map((s) => h("button", {
        type: "button", class: "primary big reveal", "data-reveal": s,
        onclick: () => { this.shown = s; this.sel = null; this.renderNow(); },
      }, t("cards.reveal", { name: this.name(s) }))));
  }

  /** @param {CardsView|null} view */
  renderHeader(view) {
    const game = this.conn.game;
    const d = view?.decision;
    let status = "";
    if (!this.online && this.conn.version >= 0) status = t("table.offline");
    else if (!view || !game) status = t("table.connecting");
    else if (game.status !== "active") status = t(`status.${game.status}`);
    else if (d) {
      const active = view.active ?? d.seat;
      const mine = this.perspective() === active;
      const left = Number(view.actions_left ?? 0);
      const phase = left > 0 ? t("table.action_n", { n: Math.min(2, 3 - left) }) : t("cards.turn_end");
      status = `${mine ? t("table.your_turn") : t("table.turn", { name: this.name(active) })} · ${phase}`;
    }
    fill(this.header,
      h("a", { href: "/", class: "home", title: t("nav.lobby") }, t("cards.title")),
      h("span", { class: "status", id: "status" }, status),
      view ? h("span", { class: "bag", title: t("cards.deck_hint") }, `${t("cards.deck")}: ${view.deck_count ?? 0}`) : null,
      langSwitch());
    document.title = `${status ? `${status} · ` : ""}${t("cards.title")}`;
  }

  /** @param {import("../types.js").GameMeta} game */
  renderBanner(game) {
    if (game.status !== "waiting") {
      fill(this.banner);
      return;
    }
    const missing = game.seats.filter((s) => !s.taken).map((s) => this.name(s.seat));
    const mine = findGame(game.id);
    fill(this.banner, h("div", { class: "waiting-banner" },
      h("p", {}, t("table.waiting", { names: missing.join(", ") })),
      mine?.invites?.length ? h("ul", { class: "links" }, ...mine.invites.map((inv) =>
        h("li", {}, h("span", {}, t("lobby.seat", { n: inv.seat + 1 })), h("input", { type: "text", readonly: true, value: inv.link, class: "link", "aria-label": t("lobby.seat", { n: inv.seat + 1 }) })))) : null));
  }

  renderMarks() {
    const ui = this.ui;
    if (!ui) return;
    const view = ui.view;
    const lay = view.layout;
    const lastStep = [...this.conn.history].reverse().find((s) => s.kind !== "undo");
    const last = new Set();
    for (const x of lastStep ? touched(lastStep.events) : []) {
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
    let preview = this.previewSpots;
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
    fill(this.info, kingdom ? kingdomInfo(view, kingdom, (s) => this.name(s)) : h("p", { class: "hint" }, t("cards.hover_hint")));
  }
}
