// The board-game table: the board, the hand of the seat shown, one panel per
// decision, the seats, the move log and the chat. Everything shown comes from
// the server's views and events; squares light up only from the view's `legal`.

import { boardMaps } from "../shared/api.js";
import { fill, h } from "../shared/dom.js";
import { t, tt } from "../shared/i18n.js";
import { Seating } from "../shared/seating.js";
import { BoardDrawing } from "./draw.js";
import { LEADERS, LEADER_LETTER, TILE_LETTER } from "../shared/pieces.js";
import { COLUMNS, ROWS, block, parseSquare, squareName } from "./geometry.js";
import { readBoard, regionAt, strengths } from "./kingdoms.js";
import { parseLegal } from "./legal.js";
import { decisionPanel, handPanel, seatsPanel } from "./panels.js";
import { scoringPanel } from "./scoring.js";
import { WORDS, actionWords, stepEntry, touched } from "./words.js";
import { squareInfo } from "./info.js";
import { conflictLine } from "../shared/panels.js";
import { Zoom } from "../shared/zoom.js";
import { BOARD_WIDTH } from "./draw.js";
import { notSeen } from "../shared/follow.js";

/** @typedef {import("../shared/types.js").TableHost} TableHost */
/** @typedef {import("../shared/types.js").TableModule} TableModule */
/** @typedef {import("../shared/types.js").BoardView} BoardView */
/** @typedef {import("./panels.js").Selection} Selection */
/** @typedef {import("./panels.js").Ui} Ui */
/** @typedef {import("./legal.js").Legal} Legal */

export { WORDS };

/**
 * @param {TableHost} host
 * @returns {Promise<TableModule>}
 */
export async function createTable(host) {
  const maps = await boardMaps();
  return new BoardTable(host, maps);
}

/** @type {import("../shared/seating.js").Parts<BoardView, Selection, Legal, Ui>} */
const PARTS = {
  words: WORDS,
  entry: stepEntry, parseLegal, handPanel, seatsPanel, touched, shown: actionWords,
  places: (action) => new Set(action.match(/[A-P](?:1[01]|[1-9])(?!\d)/g) ?? []),
  turnOf: (view, d) => ({ active: view.turn?.active ?? d.seat, phase: t("table.action_n", { n: Math.min(2, (view.turn?.actions_done ?? 0) + 1) }) }),
  counter: (view) => h("span", { class: "bag-counts" },
    h("span", { class: "bag", title: t("table.bag_n", { n: view.bag?.count ?? 0 }) }, `${t("table.bag")}: ${view.bag?.count ?? 0}`),
    notSeen(view.not_seen, "follow.unseen")),
  colourKey: (c, legal) => legal.tiles.has(c) ? { kind: "tile", colour: c } : null,
  leaderKey: (l, legal) => legal.leaders.has(l) || legal.withdraw.has(l) ? { kind: "leader", leader: l } : null,
};

/** @extends {Seating<BoardView, Selection, Legal, Ui>} */
class BoardTable extends Seating {
  /**
   * @param {TableHost} host
   * @param {any} maps
   */
  constructor(host, maps) {
    super(host, PARTS);
    this.maps = maps;
    /** @type {string|null} */
    this.hover = null;
    /** @type {BoardDrawing|null} */
    this.drawing = null;

    this.boardWrap = h("div", { class: "board-wrap" });
    this.info = h("div", { class: "square-info", "aria-live": "polite" });
    this.final = h("div", { class: "final-slot" });
    // Zoomed, the board's squares are 36 px wide (48 units at 0.75).
    this.zoom = new Zoom(this.boardWrap, 0.75, BOARD_WIDTH);
    fill(host.root,
      this.header,
      this.banner,
      h("main", { class: "table-layout" },
        h("section", { class: "board-area" }, this.boardWrap,
          h("div", { class: "board-tools" }, this.info, this.zoom.button), this.final),
        this.side()));
  }

  // --- picking ------------------------------------------------------------------------
  /** @param {Selection|null} sel */
  select(sel) {
    this.sel = sel;
    this.message = null;
    const targets = [...this.targets()];
    if (sel && sel.kind !== "swap" && !targets.length) this.message = t("table.no_targets");
    if (this.cursor && !targets.includes(this.cursor)) this.cursor = null;
    this.renderNow();
  }

  /** @param {Ui} ui */
  gameTargets(ui) {
    if (this.sel?.kind === "tile") return ui.legal.tiles.get(this.sel.colour) ?? new Set();
    return new Set(ui.legal.treasures.map((x) => x.square));
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

  // --- keyboard -----------------------------------------------------------------------
  /**
   * "s" starts a swap.
   * @param {KeyboardEvent} e
   * @param {Ui} ui
   */
  gameKey(e, ui) {
    if (e.key !== "s" || !ui.legal.swaps.size) return false;
    this.select({ kind: "swap", picks: [] });
    return true;
  }

  /** @param {KeyboardEvent} e */
  arrow(e) {
    e.preventDefault();
    this.moveCursor(e.key);
  }

  /** @param {string} sq */
  clickCursor(sq) {
    this.clickSquare(sq);
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
    this.renderNow();
  }

  // --- drawing ------------------------------------------------------------------------
  /**
   * @param {Ui} ui
   * @param {import("../shared/types.js").GameMeta} game
   */
  paintGame(ui, game) {
    this.renderBoard(ui.view);
    const outcome = ui.view.outcome;
    // The final scoring is wide: it goes under the board, where there is room.
    fill(this.final, outcome ? scoringPanel(outcome, (s) => this.name(s)) : null);
    // A duel ended by a player leaving has no outcome, but is over all the same.
    const ended = outcome || game.status === "over" || game.status === "aborted";
    fill(this.decision,
      ended ? h("a", { class: "button", href: `/replay/${game.id}` }, t("table.replay")) : decisionPanel(ui, this.borderedFirst(ui.view)));
  }

  /** @param {BoardView} view the board side the game is played on */
  mapSide(view) {
    return view.options?.advanced ? this.maps.advanced : this.maps.standard;
  }

  /**
   * The bordered treasures taken by themselves in the steps that led to a pending
   * treasure choice (B-30): back from the latest step through the answers to earlier
   * choices, to the action that started the taking.
   * @param {BoardView} view
   * @returns {string[]}
   */
  borderedFirst(view) {
    if (view.decision?.kind !== "treasure") return [];
    const bordered = new Set(/** @type {string[]} */ (this.mapSide(view)?.bordered ?? []));
    const out = [];
    const history = this.conn.history;
    for (let i = history.length - 1; i >= 0; i--) {
      const events = history[i]?.events ?? [];
      for (const e of events) if (e.kind === "treasure_taken" && bordered.has(String(e.square))) out.unshift(String(e.square));
      if (events.some((e) => e.kind !== "treasure_taken")) break;
    }
    return out;
  }

  /** @param {BoardView} view */
  renderBoard(view) {
    if (!this.drawing) {
      this.drawing = new BoardDrawing(this.mapSide(view));
      const grid = this.drawing.grid;
      grid.addEventListener("click", (e) => {
        const sq = /** @type {Element} */ (e.target).getAttribute("data-sq");
        if (!sq) return;
        // Where no pointer hovers (touch screens), a tap with nothing picked shows
        // the square's kingdom and strengths; it stays until another tap.
        if (!this.sel && sq !== this.hover) {
          this.hover = sq;
          this.renderMarks();
        }
        this.clickSquare(sq);
      });
      // A finger's moves pan the zoomed board and its lifting leaves it: neither
      // changes what a tap showed.
      grid.addEventListener("pointermove", (e) => {
        if (e.pointerType === "touch") return;
        const sq = /** @type {Element} */ (e.target).getAttribute("data-sq");
        if (sq !== this.hover) {
          this.hover = sq;
          this.renderMarks();
        }
      });
      grid.addEventListener("pointerleave", (e) => {
        if (e.pointerType === "touch") return;
        this.hover = null;
        this.renderMarks();
      });
      this.boardWrap.append(this.drawing.svg);
    }
    this.drawing.render(view);
    this.drawing.describe(view, (s) => this.name(s));
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
    const ctx = view.decision?.kind === "commit" ? view.decision.context ?? {} : {};
    const conflict = new Set([ctx.attacker_leader, ctx.defender_leader].filter((x) => typeof x === "string"));
    const preview = this.preview ? new Set([...this.preview].flatMap((sq) => ui.legal.monuments.some((m) => m.square === sq) ? block(sq) : [sq])) : null;
    drawing.mark({
      targets: preview ?? this.targets(),
      cursor: this.cursor,
      picked: this.sel?.kind === "leader" && ui.me !== null ? view.seats[ui.me]?.leaders?.[this.sel.leader] ?? null : null,
      last: this.changedPlaces(),
      region: region && region.leaders.length ? region.squares : undefined,
      conflict,
    });
    fill(this.info, conflictLine(view, (s) => this.name(s)),
      this.hover ? squareInfo(this.hover, region, (s) => this.name(s), (reg, l) => strengths(board, reg, l))
        : h("p", { class: "hint" }, tt("table.square_hint")));
    this.zoom.label();
  }
}
