// The replay of an ended board game (/replay/{id}): the board, every hand, the
// leaders off the board and the points of each step (stepped by
// ../shared/replayer.js). The record of an ended game is public, so every hand is
// shown.

import { boardMaps } from "../shared/api.js";
import { fill, h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { COLOURS, LEADERS, LEADER_COLOUR, dynastyOf } from "../shared/pieces.js";
import { Replayer } from "../shared/replayer.js";
import { leaderIcon, tileIcon } from "../shared/symbols.js";
import { BoardDrawing } from "./draw.js";
import { scoringPanel } from "./scoring.js";
import { fetchStats, statsPanel } from "../shared/endgame.js";
import { WORDS, shownNotation, stepEntry, touched } from "./words.js";

/**
 * @param {HTMLElement} app
 * @param {string} gameId
 * @param {{bytes: ArrayBuffer, doc: any}} record the game's record (GET …/record)
 */
export async function startReplay(app, gameId, record) {
  const maps = await boardMaps();
  /** @type {BoardDrawing|null} */
  let drawing = null;
  /** @param {Replayer} r */
  const paint = (r) => {
    const current = r.current;
    const view = current.views.spectator;
    if (!drawing) {
      drawing = new BoardDrawing(view.options?.advanced ? maps.advanced : maps.standard);
    }
    drawing.render(view);
    drawing.describe(view, (s) => r.name(s));
    // a flagged move's better one names "the marked square": mark it
    const flagged = r.review?.status === "done" && r.step > 0 ? r.review.moves[r.step - 1]?.best : null;
    drawing.mark({ last: touched(current.events ?? []), targets: flagged ? squaresOf(flagged.action) : undefined });
    const name = (/** @type {number} */ s) => r.name(s);
    const hands = h("ol", { class: "replay-hands" }, ...view.seats.map((/** @type {any} */ _s, /** @type {number} */ i) => {
      const own = current.views[String(i)]?.seats?.[i];
      return h("li", {},
        leaderIcon("black", dynastyOf(i), 22), h("span", { class: "seat-name" }, name(i)),
        h("span", { class: "mini-hand" }, ...COLOURS.flatMap((c) => Array.from({ length: own?.hand?.[c] ?? 0 }, () => tileIcon(c, 20, t(`tile.${c}`))))),
        h("span", { class: "off-leaders" }, ...LEADERS.filter((l) => !own?.leaders?.[l]).map((l) => leaderIcon(LEADER_COLOUR[l], dynastyOf(i), 16, t(`leader.${l}`)))),
        h("span", { class: "points" }, ...COLOURS.map((c) => h("span", { class: `pt ${c}` }, tileIcon(c, 14), String(own?.points?.[c] ?? 0)))));
    }));
    fill(r.app,
      r.header(WORDS.title),
      h("main", { class: "table-layout" },
        h("section", { class: "board-area" }, h("div", { class: "board-wrap" }, drawing.svg)),
        h("aside", { class: "side" },
          r.controls(stepEntry, { name, perspective: null }),
          h("section", { class: "panel" }, h("h2", {}, t("replay.hands")), hands),
          r.endPanel(),
          r.step === r.steps && view.outcome ? scoringPanel(view.outcome, name) : null,
          r.step === r.steps && stats ? statsPanel(stats, name) : null,
          r.reviewPanel(),
          h("section", { class: "panel" }, r.moves(shownNotation)))));
    document.title = `${t("replay.title")} · ${t(WORDS.title)}`;
  };
  /** @type {import("../shared/endgame.js").GameStats|null} the same figures as the table's */
  let stats = null;
  const replayer = new Replayer(app, gameId, record, WORDS, paint);
  fetchStats(gameId).then((got) => { stats = got; replayer.render(); }, () => {});
  await replayer.start();
}

/**
 * The squares a move's notation names ("rF4", "monument rb F4", "treasure A1").
 * @param {string} action
 * @returns {Set<string>}
 */
export function squaresOf(action) {
  return new Set(action.match(/[A-P](?:1[01]|[1-9])(?![0-9])/g) ?? []);
}
