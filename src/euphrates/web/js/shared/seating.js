// What the board table and the card table have in common: the seats this screen
// holds and the one it shows (several seats at one screen stay covered until their
// player looks), acting and undoing for the seat that decides, the notation box, the
// keys, the header, the waiting banner, the host's controls, the log and chat tabs.
// Each game's table extends `Seating` with its drawing, its clicks and its panels.

import { bringIntoView, fill, h } from "./dom.js";
import { endBanner, fetchStats, hasEnd, overText, statsPanel } from "./endgame.js";
import { ClockNotices } from "./fairplay.js";
import { Follow } from "./follow.js";
import { flash } from "./motion.js";
import { paintControls } from "./controls.js";
import { Hint } from "./hint.js";
import { currentLang, errorText, langSwitch, onLang, refusal, t } from "./i18n.js";
import { ruleLink, withRulings } from "./rulelinks.js";
import { LogTabs } from "./logtabs.js";
import { seatName } from "./pages.js";
import { LETTER_COLOUR, LETTER_LEADER } from "./pieces.js";
import { Waiting } from "./waiting.js";

/** @typedef {import("./types.js").TableHost} TableHost */
/** @typedef {import("./types.js").Decision} Decision */
/** @typedef {import("./types.js").GameMeta} GameMeta */
/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./pieces.js").Colour} Colour */
/** @typedef {import("./pieces.js").Leader} Leader */

/**
 * The texts each game names its own things by.
 * @typedef {object} Words
 * @property {string} title the game's name ("app.title", "cards.title")
 * @property {string} bot a bot's name, by its dynasty and level
 * @property {string} dynasty the prefix of the dynasties' names
 * @property {string} coverHint under the covered hand: whose hand stays hidden
 * @property {string} reveal the button that shows a hand
 * @property {string} typeHint examples of the notation
 * @property {string} what the prefix of the decisions' names ("what.", "cards.what.")
 */

/**
 * What a game brings to its table: its words, its panels, what its keys pick.
 * @template V, S, L, U
 * @typedef {object} Parts
 * @property {Words} words
 * @property {import("./logtabs.js").StepEntry} entry the game's words for a step of the log
 * @property {(legal: string[]) => L} parseLegal the view's `legal`, sorted by what is picked
 * @property {(ui: U) => Node} handPanel
 * @property {(ui: U, held: number[]) => Node} seatsPanel
 * @property {(view: V, d: Decision) => {active: number, phase: string}} turnOf for the header
 * @property {(view: V) => Node} counter the header's count of what is left to draw
 * @property {(c: Colour, legal: L) => S|null} colourKey what a colour's key picks
 * @property {(l: Leader, legal: L) => S|null} leaderKey what a leader's key (Shift) picks
 * @property {(view: V) => V} [unseen] the view drawn where no seat is shown (default: as is)
 * @property {(events: import("./types.js").GameEvent[]) => Set<string>} touched the places events changed
 * @property {(text: string, who: string) => string} shown an action in words, as made by `who` (a hint)
 * @property {(action: string) => Set<string>} places the places an action names (a hint's lit)
 */

/**
 * What every view has that the seating reads.
 * @typedef {{version: number, decision?: Decision|null, outcome?: unknown, legal?: string[]}} AnyView
 */

/**
 * What every table's panels are given, whatever the game.
 * @template V, S
 * @typedef {object} SeatUi
 * @property {V} view the view of the seat shown (public parts only while covered)
 * @property {number|null} me the seat whose hand is shown, or null
 * @property {boolean} deciding whether `me` decides now
 * @property {S|null} sel
 * @property {GameMeta} game
 * @property {(seat: number) => string} name
 * @property {(text: string) => void} act
 * @property {(sel: S|null) => void} select
 * @property {number} commit the commitment chosen so far
 * @property {(n: number) => void} setCommit
 * @property {() => void} redraw draw the table again as it stands (a module loaded late)
 * @property {(places: Set<string>|null) => void} preview light these places (a choice pointed at)
 */

/**
 * @template {AnyView} V the game's view
 * @template {{kind: string}} S what the player has picked
 * @template {import("./legal.js").CommonLegal} L the game's legal actions by piece
 * @template {SeatUi<V, S> & {legal: L}} U
 */
export class Seating {
  /**
   * @param {TableHost} host
   * @param {Parts<V, S, L, U>} parts
   */
  constructor(host, parts) {
    this.conn = host.conn;
    this.hostToken = host.hostToken;
    this.parts = parts;
    this.words = parts.words;
    /** @type {number|null} the seat whose hand this screen shows (several seats: after "show") */
    this.shown = null;
    /** @type {S|null} */
    this.sel = null;
    /** @type {string|null} */
    this.cursor = null;
    /** @type {Set<string>|null} the places a choice pointed at lights */
    this.preview = null;
    this.commit = 0;
    /** @type {string|null} */
    this.message = null;
    this.online = false;
    this.busy = false;
    this.decisionKey = "";
    /** the decision last brought into view (a phone scrolled down to the log) */
    this.decisionShown = "";
    /** @type {U|null} */
    this.ui = null;
    /** The animation frame that will draw, if one is asked for. */
    this.frame = 0;
    /** Versions received and not yet drawn, with the arrival of their frames. @type {[number, number][]} */
    this.arrivals = [];

    this.header = h("header", { class: "top table-top" });
    this.banner = h("div", { class: "banner" });
    this.decision = h("div", { class: "decision-slot" });
    this.hand = h("div", { class: "hand-slot" });
    this.seats = h("div", { class: "seats-slot" });
    this.tabs = h("div", { class: "tabs-slot" });
    this.hostBox = h("div", { class: "host-slot" });
    this.hostKey = "";
    this.hint = new Hint({ conn: this.conn, shown: (a, s) => parts.shown(a, this.name(s)), places: parts.places, say: (m) => this.say(m),
      light: (p) => { this.preview = p; this.renderMarks(); }, renderNow: () => this.renderNow() });
    this.waiting = new Waiting();
    this.notices = new ClockNotices();
    this.notice = h("p", { class: "notice", role: "alert" });
    /** @type {Set<string>|null} the places of the step a replayed turn shows now */
    this.replayMarks = null;
    this.follow = new Follow(this.conn, {
      perspective: () => this.perspective(),
      myTurn: () => this.acting() !== null && this.acting() === this.perspective() && this.conn.game?.status === "active",
      touched: parts.touched,
      showReplay: (marks) => this.showReplay(marks),
      entry: (step) => parts.entry(step, { name: (x) => this.name(x), perspective: this.perspective() }, false),
      title: () => t(this.words.title),
    });
    this.statsSlot = h("div", { class: "stats-slot" });
    this.statsShown = "";
    this.logTabs = new LogTabs(this.conn, parts.entry, (s) => this.name(s), this.declined(),
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
    document.addEventListener("keydown", (e) => this.key(e));
    // Another language is the player's own click: drawn at once.
    onLang(() => this.renderNow());
  }

  /** The side column: the decision, the hand, the notation box, the seats, the tabs. */
  side() {
    return h("aside", { class: "side" }, this.decision, this.notice, this.hand, this.notationForm, this.follow.element, this.seats, this.tabs, this.hostBox);
  }

  // --- what the game adds -------------------------------------------------------------
  /**
   * Where the log names the decision a "no" answered, the game says so here.
   * @returns {((version: number) => string|null)|null}
   */
  declined() {
    return null;
  }

  /**
   * The game's drawing and panels, once the common part of the `Ui` is known.
   * @param {U} _ui
   * @param {GameMeta} _game
   */
  paintGame(_ui, _game) {}

  /** The marks on the drawing: lit places, the cursor, the last move. */
  renderMarks() {}

  /**
   * The places lit for the game's own piece picked (a tile, a card), or else by its
   * decision (treasures, exchanges).
   * @param {U} _ui
   * @returns {Set<string>}
   */
  gameTargets(_ui) {
    return new Set();
  }

  /**
   * A key only this game knows; true if it was used.
   * @param {KeyboardEvent} _e
   * @param {U} _ui
   */
  gameKey(_e, _ui) {
    return false;
  }

  /**
   * An arrow key moves the cursor over the places the pick may go.
   * @param {KeyboardEvent} _e
   */
  arrow(_e) {}

  /**
   * Enter or space on the cursor: as a click there.
   * @param {string} _at
   */
  clickCursor(_at) {}

  /**
   * @param {S|null} _sel
   */
  select(_sel) {}

  // --- what is shown ------------------------------------------------------------------
  get held() {
    return [...this.conn.seats].sort((a, b) => a - b);
  }

  /** @returns {V|null} */
  anyView() {
    const held = this.held;
    return this.conn.views[held.length ? String(held[0]) : "spectator"] ?? null;
  }

  /** The places lit for what is picked (a leader, the catastrophe, the game's piece),
   * or else for the decision: from the view's `legal` only. */
  targets() {
    const ui = this.ui;
    if (!ui || !ui.deciding) return new Set();
    const sel = /** @type {{kind: string, leader?: Leader}|null} */ (this.sel);
    if (sel?.kind === "leader" && sel.leader) return ui.legal.leaders.get(sel.leader) ?? new Set();
    if (sel?.kind === "catastrophe") return ui.legal.catastrophes;
    return this.gameTargets(ui);
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
    return seatName(this.conn.game?.seats?.[seat], seat, this.words);
  }

  /** The latest step that is not an undo (the one the board marks as last), if any.
   * @returns {Step|undefined} */
  lastStep() {
    const history = this.conn.history;
    for (let i = history.length - 1; i >= 0; i--) if (history[i]?.kind !== "undo") return history[i];
    return undefined;
  }

  /** The places outlined as changed: those of the step a replayed turn shows, else every
   * place changed since the seat shown last played (`Follow`). */
  changedPlaces() {
    return this.replayMarks ?? this.follow.places();
  }

  /**
   * One step of a replayed turn: its places outlined and its pieces shown arriving
   * (null: the replay is over, back to every change since one's last turn).
   * @param {Set<string>|null} marks
   */
  showReplay(marks) {
    this.replayMarks = marks;
    this.renderMarks();
    const layer = this.decision.ownerDocument.querySelector("svg .pieces");
    if (!marks || !layer) return;
    for (const p of marks) {
      const column = /^card:(\d)$/.exec(p);
      const pieces = column
        ? [...layer.querySelectorAll(`[data-spot^="${column[1]}."]`)].slice(-1)
        : [...layer.querySelectorAll(`[data-sq="${p}"], [data-spot="${p}"]`)];
      for (const el of pieces) flash(el);
    }
  }

  /** The seat whose last action an undo would take back now: the server says so with
   * every version (`can_undo`), for the seat this screen shows. */
  undoSeat() {
    const game = this.conn.game;
    if (!game || game.status !== "active") return null;
    const seat = this.perspective();
    return seat !== null && this.conn.canUndo[String(seat)] ? seat : null;
  }

  // --- acting -------------------------------------------------------------------------
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
      // The update usually arrives before the ack: a piece picked since stays picked.
      if (this.sel === sel) {
        this.sel = null;
        this.cursor = null;
      }
      this.message = null;
      done?.();
    }, (e) => {
      this.say(errorText(e));
    }).finally(() => {
      this.busy = false;
      this.renderNow();
    });
  }

  undo() {
    const seat = this.undoSeat();
    if (seat === null) return;
    this.conn.undo(seat).then(() => { this.message = null; this.sel = null; }, (e) => {
      this.say(errorText(e));
    }).finally(() => this.renderNow());
  }

  /** @param {string} text */
  say(text) {
    this.message = text;
    this.renderNow();
  }

  // --- keyboard -----------------------------------------------------------------------
  /** @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    const ui = this.ui;
    if (!ui) return;
    const onButton = target.closest("button, a") !== null;
    if (e.key === "Escape") {
      this.cursor = null;
      this.select(null);
    } else if (e.key in LETTER_COLOUR && !e.shiftKey) { // a piece's key: colours by their letter, leaders with Shift
      const sel = this.parts.colourKey(/** @type {Colour} */ (LETTER_COLOUR[e.key]), ui.legal);
      if (sel) this.select(sel);
    } else if (e.key in LETTER_LEADER && e.shiftKey) {
      const sel = this.parts.leaderKey(/** @type {Leader} */ (LETTER_LEADER[e.key]), ui.legal);
      if (sel) this.select(sel);
    } else if (e.key === "x" && ui.legal.catastrophes.size) {
      this.select(/** @type {S} */ ({ kind: "catastrophe" }));
    } else if (this.gameKey(e, ui)) {
      // the game's own key
    } else if (e.key === "u") {
      this.undo();
    } else if (e.key === "/" || e.key === "n") {
      e.preventDefault();
      this.notationInput.focus();
    } else if (/^[0-9]$/.test(e.key) && ui.legal.commits.length) {
      this.commit = Number(e.key);
      this.renderNow();
    } else if (e.key.startsWith("Arrow")) {
      this.arrow(e);
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

  // --- module interface ---------------------------------------------------------------
  /** @param {Step} step */
  step(step) {
    if (step.kind === "undo") this.sel = null;
    this.arrivals.push([step.version, this.conn.lastFrameAt]);
  }

  /** @param {import("./types.js").ChatLine} _line */
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
   * The views or the game changed: draw at the next frame. A burst of updates (bots
   * moving fast, a reconnect catching up) costs one drawing, not one per version.
   */
  render() {
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

  /** Paint, and measure each update drawn from the arrival of its frame
   * (`performance.measure("update N")`, read by the browser tests). */
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

  /** Everything from the views: the header, the game's drawing and panels, the hand (or
   * its cover), the notation box, the seats, the log. */
  paint() {
    const view = this.anyView();
    const game = this.conn.game;
    this.renderHeader(view);
    if (!view || !game) return;
    const me = this.perspective();
    const unseen = this.parts.unseen ?? ((/** @type {V} */ v) => v);
    const shownView = me !== null ? this.conn.views[String(me)] ?? view : unseen(view);
    const deciding = me !== null && this.acting() === me && game.status === "active";
    const dkey = `${shownView.version}:${me}`;
    if (dkey !== this.decisionKey) {
      // A decision answered or changed: what its choices lit goes with it (the button
      // pointed at is gone, and no mouseleave will come from it).
      this.decisionKey = dkey;
      this.commit = 0;
      this.preview = null;
    }
    const legal = this.parts.parseLegal(deciding ? shownView.legal ?? [] : []);
    const ui = /** @type {U} */ ({
      view: shownView, me, deciding, legal, sel: this.sel, game,
      name: (/** @type {number} */ s) => this.name(s),
      act: (/** @type {string} */ text) => this.act(text),
      select: (/** @type {S|null} */ sel) => this.select(sel),
      commit: this.commit,
      setCommit: (/** @type {number} */ n) => { this.commit = n; this.renderNow(); },
      redraw: () => this.renderNow(),
      preview: (/** @type {Set<string>|null} */ places) => { this.preview = places; this.renderMarks(); },
    });
    this.ui = ui;
    if (this.sel && !deciding) this.sel = ui.sel = null;
    this.paintGame(ui, game);
    this.renderBanner(game);
    fill(this.notice, ...withRulings(this.message ?? "", game.game));
    this.notice.hidden = !this.message;
    if (me !== null) {
      fill(this.hand, this.parts.handPanel(ui), this.undoButton(), this.hint.render(game, deciding ? me : null));
    } else if (this.held.length > 1 && this.covered()) {
      fill(this.hand, this.coverPanel());
    } else {
      fill(this.hand, this.held.length ? null : h("p", { class: "hint" }, t("table.spectating")));
    }
    this.notationLabel.textContent = t("table.type");
    this.notationInput.placeholder = t(this.words.typeHint);
    this.notationButton.textContent = t("table.send");
    this.notationForm.hidden = !deciding;
    fill(this.seats, this.parts.seatsPanel(ui, this.held));
    if (!this.tabs.firstChild) fill(this.tabs, this.logTabs.element);
    this.logTabs.render(me);
    paintControls(this, game);
    this.follow.paint();
    document.body.dataset.version = String(this.conn.version);
    if (deciding && dkey !== this.decisionShown) {
      this.decisionShown = dkey;
      bringIntoView(document.querySelector(".panel.decision.mine"));
    }
  }

  /**
   * An ended game: the banner with the winner and the places at the top; the statistics
   * under the final scoring, asked for once (none for an aborted game).
   * @param {GameMeta} game
   * @param {import("./types.js").Outcome|null|undefined} outcome
   */
  renderEnd(game, outcome) {
    fill(this.banner, endBanner(outcome, (x) => this.name(x), game, this.conn.notes));
    if (game.status !== "over") return;
    const final = this.banner.ownerDocument.querySelector(".final-slot");
    if (final && this.statsSlot.previousElementSibling !== final) final.after(this.statsSlot);
    const key = `${game.id}:${currentLang()}`;
    if (key === this.statsShown) return;
    this.statsShown = key;
    fetchStats(game.id).then((stats) => fill(this.statsSlot, statsPanel(stats, (x) => this.name(x))), () => {
      this.statsShown = "";
    });
  }

  undoButton() {
    if (this.undoSeat() === null) return null;
    return h("button", { type: "button", class: "undo", id: "undo", title: "u", onclick: () => this.undo() }, `↶ ${t("table.undo")}`);
  }

  coverPanel() {
    const acting = this.acting();
    const who = acting !== null ? [acting] : this.held;
    const first = /** @type {number} */ (who[0]);
    return h("section", { class: "panel cover", "aria-live": "assertive" },
      h("h2", {}, t("table.cover", { name: this.name(first) })),
      h("p", { class: "hint" }, t(this.words.coverHint, { name: this.name(first) })),
      ...who.map((s) => h("button", {
        type: "button", class: "primary big reveal", "data-reveal": s,
        onclick: () => { this.shown = s; this.sel = null; this.renderNow(); },
      }, t(this.words.reveal, { name: this.name(s) }))));
  }

  /** @param {V|null} view */
  renderHeader(view) {
    const game = this.conn.game;
    const d = view?.decision;
    let status = "";
    if (!this.online && this.conn.version >= 0) status = t("table.offline");
    else if (!view || !game) status = t("table.connecting");
    else if (game.status === "over") status = overText(game, /** @type {any} */ (view.outcome), (s) => this.name(s));
    else if (game.status !== "active") status = t(`status.${game.status}`);
    else if (d && d.kind !== "action") {
      // A decision inside a turn (a defence, a point, a treasure) may be another
      // seat's than the turn's: the header names whoever decides.
      const what = t(`${this.words.what}${d.kind}`);
      status = this.perspective() === d.seat ? t("table.your_decision", { what }) : t("table.decides", { name: this.name(d.seat), what });
    } else if (d) {
      const { active, phase } = this.parts.turnOf(view, d);
      const mine = this.perspective() === active;
      status = `${mine ? t("table.your_turn") : t("table.turn", { name: this.name(active) })} · ${phase}`;
    }
    fill(this.header,
      h("a", { href: "/", class: "home", title: t("nav.lobby") }, t(this.words.title)),
      h("span", { class: "status", id: "status" }, status),
      view ? this.parts.counter(view) : null,
      game ? ruleLink(game.game, "", t("rules.button"), "rules-button") : null,
      langSwitch());
    document.title = `${status ? `${status} · ` : ""}${t(this.words.title)}`;
  }

  /** @param {GameMeta} game */
  renderBanner(game) {
    const outcome = /** @type {import("./types.js").Outcome|null|undefined} */ (this.anyView()?.outcome);
    if (hasEnd(game, outcome)) {
      this.renderEnd(game, outcome);
      return;
    }
    if (game.status !== "waiting") {
      this.notices.paint(this.banner, game, this.held, (s) => this.name(s));
      return;
    }
    this.waiting.paint(this.banner, {
      game, held: this.held, host: this.conn.host, hostToken: this.hostToken, name: (s) => this.name(s), say: (m) => this.say(m),
    });
  }
}
