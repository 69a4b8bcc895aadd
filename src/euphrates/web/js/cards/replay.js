// The replay of an ended card game (/replay/{id}): the layout, every hand, pile and
// leader of each step (stepped by ../replayer.js). The record of an ended game is
// public, so every hand and every bridge is shown.

import { fill, h, stylesheet } from "../shared/dom.js";
import { useTexts, t } from "../shared/i18n.js";
import { Replayer } from "../shared/replayer.js";
import { leaderIcon } from "../shared/symbols.js";
import { dynastyOf } from "../shared/pieces.js";
import { LayoutDrawing } from "./draw.js";
import { CARD_LETTER, COLOURS, LEADERS, LEADER_COLOUR, LEADER_LETTER, countCards } from "./model.js";
import { pileView, tableStrip } from "./panels.js";
import { cardIcon } from "./pictures.js";
import { scoringPanel } from "./scoring.js";
import { fetchStats, statsPanel } from "../shared/endgame.js";
import { WORDS, shownNotation, stepEntry, touched } from "./words.js";

await useTexts("pages-cards");
const styled = stylesheet("/static/css/cards.css");

/**
 * @param {HTMLElement} app
 * @param {string} gameId
 * @param {{bytes: ArrayBuffer, doc: any}} record the game's record (GET …/record)
 */
export async function startReplay(app, gameId, record) {
  await styled;
  const drawing = new LayoutDrawing((key, params) => t(key, params));
  /** @param {Replayer} r */
  const paint = (r) => {
    const current = r.current;
    const spectator = current.views.spectator;
    // The layout as the active seat saw it: a face-down bridge shows its colour.
    const view = current.views[String(spectator.active)] ?? spectator;
    drawing.render(view);
    const last = new Set();
    for (const x of touched(current.events ?? [])) {
      const m = /^card:(\d)$/.exec(x);
      const len = m ? view.layout.columns[Number(m[1]) - 1]?.length ?? 0 : 0;
      if (!m) last.add(x);
      else if (len) last.add(`${m[1]}.${len}`);
    }
    drawing.mark({ last });
    const name = (/** @type {number} */ s) => r.name(s);
    const seats = h("ol", { class: "replay-hands replay-piles" }, ...spectator.hand_counts.map((/** @type {number} */ _n, /** @type {number} */ i) => {
      const own = current.views[String(i)];
      const hand = countCards(own?.hand);
      return h("li", { "data-seat": i },
        leaderIcon("black", dynastyOf(i), 22), h("span", { class: "seat-name" }, name(i)),
        h("span", { class: "mini-hand" }, ...COLOURS.flatMap((c) => Array.from({ length: hand[c] }, () => cardIcon(CARD_LETTER[c], 16, t(`cards.card.${c}`))))),
        h("span", { class: "off-leaders" }, ...LEADERS.filter((l) => !spectator.leaders?.[i]?.[LEADER_LETTER[l]]).map((l) => leaderIcon(LEADER_COLOUR[l], dynastyOf(i), 16, t(`leader.${l}`)))),
        pileView(spectator.piles?.[i], Boolean(spectator.over)));
    }));
    const over = (current.events ?? []).find((/** @type {any} */ e) => e.kind === "game_over");
    fill(r.app,
      r.header(WORDS.title),
      h("main", { class: "table-layout cards-table" },
        h("section", { class: "board-area layout-area" }, h("div", { class: "layout-wrap" }, drawing.svg), tableStrip(view),
          r.endPanel(),
          r.step === r.steps && spectator.outcome ? scoringPanel(spectator.outcome, name, over ? String(over.reason) : null) : null,
          r.step === r.steps && stats ? statsPanel(stats, name) : null),
        h("aside", { class: "side" },
          r.controls(stepEntry, { name, perspective: null, everything: true }),
          h("section", { class: "panel" }, h("h2", {}, t("cards.replay.piles")), seats),
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
