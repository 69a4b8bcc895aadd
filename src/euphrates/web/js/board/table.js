// The board-game table: the board, the hand of the seat shown, one panel per
// decision, the seats, the move log and the chat. Everything shown comes from
// the server's views and events; squares light up only from the view's `legal`.

import { boardMaps } from "../api.js";
import { chatPanel } from "../chat.js";
import { fill, h } from "../dom.js";
import { currentLang, langSwitch, refusal, t } from "../i18n.js";
import { findGame } from "../mygames.js";
import { ServerError } from "../net.js";
import { BoardDrawing } from "./draw.js";
import { COLUMNS, LEADERS, LEADER_LETTER, ROWS, TILE_LETTER, block, dynastyOf, parseSquare, squareName } from "./geometry.js";
import { readBoard, regionAt, strengths } from "./kingdoms.js";
import { parseLegal } from "./legal.js";
import { decisionPanel, handPanel, seatsPanel } from "./panels.js";
import { scoringPanel } from "./scoring.js";
import { stepEntry, touched } from "./words.js";
import { hostPanel, squareInfo } from "./extras.js";

/** @typedef {import("../table.js").TableHost} TableHost */
/** @typedef {import("../table.js").TableModule} TableModule */
/** @typedef {import("../types.js").BoardView} BoardView */
/** @typedef {import("../types.js").Step} Step */
/** @typedef {import("./panels.js").Selection} Selection */
/** @typedef {import("./panels.js").Ui} Ui */

/**
 * @param {TableHost} host
 * @returns {Promise<TableModule>}
 */
export async function createTable(host) {
  const maps = await boardMaps();
  return new BoardTable(host, maps);
}

const KEY_COLOURS = /** @type {Record<string, import("./geometry.js").Colour>} */ ({ r: "red", b: "blue", g: "green", k: "black" });
const KEY_LEADERS = /** @type {Record<string, import("./geometry.js").Leader>} */ ({ P: "priest", F: "farmer", T: "trader", K: "king" });

class BoardTable {
  /**
   * @param {TableHost} host
   * @param {any} maps
   */
  constructor(host, maps) {
    this.conn = host.conn;
    this.hostToken = host.hostToken;
    this.maps = maps;
    /** @type {number|null} the seat whose hand this screen shows (hotseat: after "show") */
    this.shown = null;
    /** @type {Selection|null} */
    this.sel = null;
    /** @type {string|null} */
    this.cursor = null;
    /** @type {string|null} */
    this.hover = null;
    /** @type {Set<string>|null} */
    this.previewSquares = null;
    this.commit = 0;
    /** @type {string|null} */
    this.message = null;
    this.tab = "log";
    this.online = false;
    this.busy = false;
    /** @type {BoardDrawing|null} */
    this.drawing = null;
    this.logBase = "";
    this.logCount = 0;
    this.unread = false;
    /** @type {HTMLElement|null} */
    this.tabList = null;
    /** @type {HTMLElement|null} */
    this.tabBody = null;
    this.decisionKey = "";
    /** @type {Ui|null} */
    this.ui = null;

    this.header = h("header", { class: "top table-top" });
    this.boardWrap = h("div", { class: "board-wrap" });
    this.info = h("div", { class: "square-info", "aria-live": "polite" });
    this.banner = h("div", { class: "banner" });
    this.decision = h("div", { class: "decision-slot" });
    this.hand = h("div", { class: "hand-slot" });
    this.seats = h("div", { class: "seats-slot" });
    this.tabs = h("div", { class: "tabs-slot" });
    this.hostBox = h("div", { class: "host-slot" });
    this.notice = h("p", { class: "notice", role: "alert" });
    this.logList = h("ol", { class: "log" });
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
    fill(host.root,
      this.header,
      this.banner,
      h("main", { class: "table-layout" },
        h("section", { class: "board-area" }, this.boardWrap, this.info),
        h("aside", { class: "side" }, this.decision, this.notice, this.hand, this.notationForm, this.seats, this.tabs, this.hostBox)));
    document.addEventListener("keydown", (e) => this.key(e));
  }

  // --- what is shown ------------------------------------------------------------
  get held() {
    return [...this.conn.seats].sort((a, b) => a - b);
  }

  /** @returns {BoardView|null} */
  anyView() {
    const held = this.held;
    return this.conn.views[held.length ? String(held[0]) : "spectator"] ?? null;
  }

  /** The seat deciding now if this screen holds it. */
  acting() {
    const d = this.anyView()?.decision;
    return d && this.held.includes(d.seat) ? d.seat : null;
  }

  /** Whether the hand must stay covered (hotseat: another seat's turn at this screen). */
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
    if (meta?.kind === "bot") {
      // Bots are told apart by their dynasty, as at the card table.
      return t("table.bot_name", { dynasty: t(`dynasty.${dynastyOf(seat)}`), level: t(`level.${meta.level ?? "beginner"}`) });
    }
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

  // --- acting -----------------------------------------------------------------------
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
      this.say(e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e));
    }).finally(() => {
      this.busy = false;
      this.render();
    });
  }

  undo() {
    const seat = this.undoSeat();
    if (seat === null) return;
    this.conn.undo(seat).then(() => { this.message = null; this.sel = null; }, (e) => {
      this.say(e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e));
    }).finally(() => this.render());
  }

  /** @param {string} text */
  say(text) {
    this.message = text;
    this.render();
  }

  /** @param {Selection|null} sel */
  select(sel) {
    this.sel = sel;
    this.message = null;
    const targets = [...this.targets()];
    if (sel && sel.kind !== "swap" && !targets.length) this.message = t("table.no_targets");
    if (this.cursor && !targets.includes(this.cursor)) this.cursor = null;
    this.render();
  }

  /** Squares lit for the current selection or decision. */
  targets() {
    const ui = this.ui;
    if (!ui || !ui.deciding) return new Set();
    const sel = this.sel;
    if (sel?.kind === "tile") return ui.legal.tiles.get(sel.colour) ?? new Set();
    if (sel?.kind === "leader") return ui.legal.leaders.get(sel.leader) ?? new Set();
    if (sel?.kind === "catastrophe") return ui.legal.catastrophes;
    if (ui.legal.treasures.length) return new Set(ui.legal.treasures.map((x) => x.square));
    return new Set();
  }

  /** @param {string} sq */
  clickSquare(sq) {
    const ui = this.ui;
    if (!ui) return;
    const sel = this.sel;
    const me = ui.me;
    if (me !== null && ui.deciding && !this.targets().has(sq)) {
      const own = LEADERS.find((l) => ui.view.seats[me]?.leaders?.[l] === sq);
      if (own && ((ui.legal.leaders.get(own)?.size ?? 0) > 0 || ui.legal.withdraw.has(own))) {
        this.select({ kind: "leader", leader: own });
        return;
      }
    }
    // A click off the lit squares is still sent: the server's refusal explains the
    // rule (with its ruling) better than a silent nothing would.
    if (sel?.kind === "tile") this.act(`${TILE_LETTER[sel.colour]}${sq}`);
    else if (sel?.kind === "leader") this.act(`${LEADER_LETTER[sel.leader]}${sq}`);
    else if (sel?.kind === "catastrophe") this.act(`x${sq}`);
    else if (ui.legal.treasures.length) {
      const tr = ui.legal.treasures.find((x) => x.square === sq);
      this.act(tr ? tr.text : `treasure ${sq}`);
    }
  }

  // --- keyboard ---------------------------------------------------------------------------
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
    } else if (e.key in KEY_COLOURS && !e.shiftKey) {
      const c = /** @type {import("./geometry.js").Colour} */ (KEY_COLOURS[e.key]);
      if (ui.legal.tiles.has(c)) this.select({ kind: "tile", colour: c });
    } else if (e.key in KEY_LEADERS && e.shiftKey) {
      const l = /** @type {import("./geometry.js").Leader} */ (KEY_LEADERS[e.key]);
      if (ui.legal.leaders.has(l) || ui.legal.withdraw.has(l)) this.select({ kind: "leader", leader: l });
    } else if (e.key === "x" && ui.legal.catastrophes.size) {
      this.select({ kind: "catastrophe" });
    } else if (e.key === "s" && ui.legal.swaps.size) {
      this.select({ kind: "swap", picks: [] });
    } else if (e.key === "u") {
      this.undo();
    } else if (e.key === "/" || e.key === "n") {
      e.preventDefault();
      this.notationInput.focus();
    } else if (/^[0-9]$/.test(e.key) && ui.legal.commits.length) {
      this.commit = Number(e.key);
      this.render();
    } else if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      this.moveCursor(e.key);
    } else if ((e.key === "Enter" || e.key === " ") && !onButton) {
      if (this.cursor) {
        e.preventDefault();
        this.clickSquare(this.cursor);
      } else if (ui.deciding && ui.legal.commits.length) {
        e.preventDefault();
        this.act(`commit ${Math.min(this.commit, Math.max(...ui.legal.commits))}`);
      }
    }
  }

  /** @param {string} key */
  moveCursor(key) {
    const targets = [...this.targets()];
    let [x, y] = this.cursor ? parseSquare(this.cursor) ?? [7, 5] : parseSquare(targets[0] ?? "H6") ?? [7, 5];
    if (this.cursor) {
      if (key === "ArrowLeft") x = (x + COLUMNS - 1) % COLUMNS;
      if (key === "ArrowRight") x = (x + 1) % COLUMNS;
      if (key === "ArrowUp") y = (y + ROWS - 1) % ROWS;
      if (key === "ArrowDown") y = (y + 1) % ROWS;
    }
    this.cursor = squareName(x, y);
    this.hover = this.cursor;
    this.render();
  }

  // --- module interface ------------------------------------------------------------------
  /** @param {Step} step */
  step(step) {
    if (step.kind === "undo") this.sel = null;
    const at = this.conn.lastFrameAt;
    requestAnimationFrame(() => {
      try {
        performance.measure(`update ${step.version}`, { start: at, end: performance.now() });
      } catch {
        /* measuring is a convenience */
      }
    });
  }

  /** @param {import("../types.js").ChatLine} _line */
  chat(_line) {
    if (this.tab !== "chat") this.unread = true;
    this.render();
  }

  /** @param {boolean} online */
  link(online) {
    this.online = online;
    this.render();
  }

  render() {
    const view = this.anyView();
    const game = this.conn.game;
    this.renderHeader(view);
    if (!view || !game) return;
    const me = this.perspective();
    const shownView = /** @type {BoardView} */ (me !== null ? this.conn.views[String(me)] ?? view : view);
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
      undoSeat: this.undoSeat(),
      undo: () => this.undo(),
      commit: this.commit,
      setCommit: (n) => { this.commit = n; this.render(); },
      preview: (squares) => { this.previewSquares = squares; this.renderMarks(); },
    };
    this.ui = ui;
    if (this.sel && !deciding) this.sel = ui.sel = null;
    this.renderBoard(shownView);
    this.renderBanner(game, view);
    const outcome = shownView.outcome;
    fill(this.decision,
      outcome ? scoringPanel(outcome, (s) => this.name(s)) : null,
      outcome ? h("a", { class: "button", href: `/replay/${game.id}` }, t("table.replay")) : null,
      outcome ? null : decisionPanel(ui));
    this.notice.textContent = this.message ?? "";
    this.notice.hidden = !this.message;
    if (me !== null) {
      fill(this.hand, handPanel(ui), this.undoButton(ui));
    } else if (this.held.length > 1 && this.covered()) {
      fill(this.hand, this.coverPanel());
    } else {
      fill(this.hand, this.held.length ? null : h("p", { class: "hint" }, t("table.spectating")));
    }
    this.notationLabel.textContent = t("table.type");
    this.notationInput.placeholder = t("table.type_hint");
    this.notationButton.textContent = t("table.send");
    this.notationForm.hidden = !deciding;
    fill(this.seats, seatsPanel(ui, this.held));
    this.renderTabs(me);
    fill(this.hostBox, this.conn.host && game.status !== "over" && game.status !== "abandoned"
      ? hostPanel(game, this.hostToken, (s) => this.name(s), (text) => this.say(text)) : null);
    document.body.dataset.version = String(this.conn.version);
  }

  /** @param {Ui} ui */
  undoButton(ui) {
    if (ui.undoSeat === null) return null;
    return h("button", { type: "button", class: "undo", id: "undo", title: "u", onclick: () => this.undo() }, `↶ ${t("table.undo")}`);
  }

  coverPanel() {
    const acting = this.acting();
    const who = acting !== null ? [acting] : this.held;
    const first = /** @type {number} */ (who[0]);
    return h("section", { class: "panel cover", "aria-live": "assertive" },
      h("h2", {}, t("table.cover", { name: this.name(first) })),
      h("p", { class: "hint" }, t("table.cover_hint", { name: this.name(first) })),
      ...who.map((s) => h("button", {
        type: "button", class: "primary big reveal", "data-reveal": s,
        onclick: () => { this.shown = s; this.sel = null; this.render(); },
      }, t("table.reveal", { name: this.name(s) }))));
  }

  /** @param {BoardView|null} view */
  renderHeader(view) {
    const game = this.conn.game;
    const d = view?.decision;
    let status = "";
    if (!this.online && this.conn.version >= 0) status = t("table.offline");
    else if (!view || !game) status = t("table.connecting");
    else if (game.status !== "active") status = t(`status.${game.status}`);
    else if (d) {
      const active = view.turn?.active ?? d.seat;
      const mine = this.perspective() === active;
      status = `${mine ? t("table.your_turn") : t("table.turn", { name: this.name(active) })} · ${t("table.action_n", { n: Math.min(2, (view.turn?.actions_done ?? 0) + 1) })}`;
    }
    fill(this.header,
      h("a", { href: "/", class: "home", title: t("nav.lobby") }, t("app.title")),
      h("span", { class: "status", id: "status" }, status),
      view ? h("span", { class: "bag", title: t("table.bag_n", { n: view.bag?.count ?? 0 }) }, `${t("table.bag")}: ${view.bag?.count ?? 0}`) : null,
      langSwitch());
    document.title = `${status ? `${status} · ` : ""}${t("app.title")}`;
  }

  /**
   * @param {import("../types.js").GameMeta} game
   * @param {BoardView} _view
   */
  renderBanner(game, _view) {
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

  /** @param {BoardView} view */
  renderBoard(view) {
    if (!this.drawing) {
      const side = view.options?.advanced ? this.maps.advanced : this.maps.standard;
      this.drawing = new BoardDrawing(side, (sq) => sq);
      const grid = this.drawing.grid;
      grid.addEventListener("click", (e) => {
        const sq = /** @type {Element} */ (e.target).getAttribute("data-sq");
        if (sq) this.clickSquare(sq);
      });
      grid.addEventListener("pointermove", (e) => {
        const sq = /** @type {Element} */ (e.target).getAttribute("data-sq");
        if (sq !== this.hover) {
          this.hover = sq;
          this.renderMarks();
        }
      });
      grid.addEventListener("pointerleave", () => {
        this.hover = null;
        this.renderMarks();
      });
      this.boardWrap.append(this.drawing.svg);
    }
    this.drawing.render(view);
    this.drawing.svg.dataset.version = String(this.conn.version);
    this.renderMarks();
  }

  renderMarks() {
    const drawing = this.drawing;
    const ui = this.ui;
    if (!drawing || !ui) return;
    const view = ui.view;
    const board = readBoard(view);
    const region = this.hover ? regionAt(board, this.hover) : null;
    const lastStep = [...this.conn.history].reverse().find((s) => s.kind !== "undo");
    const ctx = view.decision?.kind === "commit" ? view.decision.context ?? {} : {};
    const conflict = new Set([ctx.attacker_leader, ctx.defender_leader].filter((x) => typeof x === "string"));
    const preview = this.previewSquares ? new Set([...this.previewSquares].flatMap((sq) => ui.legal.monuments.some((m) => m.square === sq) ? block(sq) : [sq])) : null;
    drawing.mark({
      targets: preview ?? this.targets(),
      cursor: this.cursor,
      picked: this.sel?.kind === "leader" && ui.me !== null ? view.seats[ui.me]?.leaders?.[this.sel.leader] ?? null : null,
      last: lastStep ? touched(lastStep.events) : new Set(),
      region: region && region.leaders.length ? region.squares : undefined,
      conflict,
    });
    fill(this.info, this.hover ? squareInfo(this.hover, board, region, (s) => this.name(s), (reg, l) => strengths(board, reg, l)) : null);
  }

  /** @param {number|null} me */
  renderTabs(me) {
    if (!this.tabs.firstChild) {
      this.tabList = h("div", { role: "tablist", class: "tablist" });
      this.tabBody = h("div", { role: "tabpanel", class: "tab-body" });
      fill(this.tabs, h("section", { class: "panel tabs" }, this.tabList, this.tabBody));
    }
    const tabList = /** @type {HTMLElement} */ (this.tabList);
    const tabBody = /** @type {HTMLElement} */ (this.tabBody);
    const tabButton = (/** @type {string} */ id, /** @type {string} */ label) => h("button", {
      type: "button", role: "tab", "data-tab": id, "aria-selected": String(this.tab === id),
      class: id === "chat" && this.unread ? "unread" : "",
      onclick: () => { this.tab = id; if (id === "chat") this.unread = false; this.render(); },
    }, label);
    fill(tabList, tabButton("log", t("table.log")), tabButton("chat", t("table.chat")));
    this.updateLog(me);
    if (this.tab === "log") {
      if (tabBody.firstChild !== this.logList) fill(tabBody, this.logList);
    } else {
      fill(tabBody, chatPanel(this.conn.chat, (text) => this.conn.say(text), (m) => this.say(m)));
    }
  }

  /**
   * Bring the move log up to date: new steps are appended; an undo, another
   * perspective or another language rebuilds it.
   * @param {number|null} me
   */
  updateLog(me) {
    const history = this.conn.history;
    const base = `${me}:${currentLang()}:${this.conn.game?.seats.map((s) => `${s.kind}${s.level}${s.name}`).join()}`;
    const fresh = history.slice(this.logCount);
    const names = { name: (/** @type {number} */ s) => this.name(s), perspective: me };
    const list = this.logList;
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    if (base !== this.logBase || history.length < this.logCount || fresh.some((s) => s.kind === "undo")) {
      this.logBase = base;
      const undone = new Set(history.filter((s) => s.kind === "undo").map((s) => s.events.find((e) => e.kind === "undo")?.undone));
      list.replaceChildren(...history.flatMap((s) => stepEntry(s, names, undone.has(s.version))));
    } else if (fresh.length) {
      list.append(...fresh.flatMap((s) => stepEntry(s, names, false)));
    } else {
      return;
    }
    this.logCount = history.length;
    if (atEnd || fresh.length === history.length) requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  }
}

