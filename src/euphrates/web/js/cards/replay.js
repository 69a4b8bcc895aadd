// The replay of an ended card game (/replay/{id}): every step's views and events from
// GET /api/games/{id}/replay/{n}, stepped with buttons, a slider or the arrow keys.
// The record of an ended game is public, so every hand and every bridge is shown.

import { call } from "../api.js";
import { fill, h } from "../dom.js";
import { addTexts, langSwitch, onLang, refusal, t } from "../i18n.js";
import { ServerError } from "../net.js";
import { leaderIcon } from "../board/symbols.js";
import { dynastyOf } from "../board/geometry.js";
import { CARDS_EN } from "../strings/cards.en.js";
import { CARDS_DE, CARDS_DE_RULINGS, CARDS_DE_UNDO } from "../strings/cards.de.js";
import { LayoutDrawing } from "./draw.js";
import { CARD_LETTER, COLOURS, LEADERS, LEADER_COLOUR, LEADER_LETTER, countCards } from "./model.js";
import { pileView, tableStrip } from "./panels.js";
import { cardIcon } from "./pictures.js";
import { scoringPanel } from "./scoring.js";
import { shownNotation, stepEntry, touched } from "./words.js";

addTexts(CARDS_EN, CARDS_DE, CARDS_DE_RULINGS, CARDS_DE_UNDO);

/**
 * @param {HTMLElement} app
 * @param {string} gameId
 * @param {any} record the game's record (GET …/record)
 */
export async function startReplay(app, gameId, record) {
  /** @type {Map<number, Promise<any>>} */
  const cache = new Map();
  const drawing = new LayoutDrawing((key, params) => t(key, params));
  const steps = record.actions.length;
  let step = 0;
  /** @type {any} */
  let current = null;

  /** @param {number} n */
  const fetchStep = (n) => {
    let p = cache.get(n);
    if (!p) {
      p = call(`/api/games/${gameId}/replay/${n}`);
      cache.set(n, p);
      p.catch(() => cache.delete(n));
    }
    return p;
  };

  /** @param {number} seat */
  const name = (seat) => {
    const meta = current?.game?.seats?.[seat];
    if (meta?.kind === "bot") return t("cards.bot_name", { dynasty: t(`cards.dynasty.${dynastyOf(seat)}`), level: t(`level.${meta.level ?? "beginner"}`) });
    const n = meta?.name ?? record.seats?.[seat];
    return !n || /^Player \d$/.test(n) ? t("player.default", { n: seat + 1 }) : n;
  };

  /** @param {string} message */
  const fatal = (message) => {
    fill(app, h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch()),
      h("main", { class: "message" }, h("p", { class: "error", role: "alert" }, message)));
  };

  /** @param {number} n */
  const go = async (n) => {
    n = Math.max(0, Math.min(steps, n));
    step = n;
    try {
      const doc = await fetchStep(n);
      if (step !== n) return;
      current = doc;
    } catch (e) {
      fatal(e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e));
      return;
    }
    render();
    if (n + 1 <= steps) void fetchStep(n + 1);
    if (n > 0) void fetchStep(n - 1);
  };

  const render = () => {
    if (!current) return;
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
    const names = { name, perspective: null, everything: true };
    const stepView = current.events?.length
      ? stepEntry({ version: step, kind: "action", seat: null, events: current.events }, names, false)
      : [h("li", {}, t("replay.begin"))];
    const button = (/** @type {string} */ label, /** @type {number} */ to, /** @type {string} */ id) =>
      h("button", { type: "button", id, disabled: to < 0 || to > steps || to === step, onclick: () => void go(to) }, label);
    const slider = h("input", {
      type: "range", min: 0, max: steps, value: step, "aria-label": t("replay.step", { n: step, m: steps }),
      oninput: (/** @type {Event} */ e) => void go(Number(/** @type {HTMLInputElement} */ (e.target).value)),
    });
    const seats = h("ol", { class: "replay-hands replay-piles" }, ...spectator.hand_counts.map((/** @type {number} */ _n, /** @type {number} */ i) => {
      const own = current.views[String(i)];
      const hand = countCards(own?.hand);
      return h("li", { "data-seat": i },
        leaderIcon("black", dynastyOf(i), 22), h("span", { class: "seat-name" }, name(i)),
        h("span", { class: "mini-hand" }, ...COLOURS.flatMap((c) => Array.from({ length: hand[c] }, () => cardIcon(CARD_LETTER[c], 16, t(`cards.card.${c}`))))),
        h("span", { class: "off-leaders" }, ...LEADERS.filter((l) => !spectator.leaders?.[i]?.[LEADER_LETTER[l]]).map((l) => leaderIcon(LEADER_COLOUR[l], dynastyOf(i), 16, t(`leader.${l}`)))),
        pileView(spectator.piles?.[i]));
    }));
    const moves = h("ol", { class: "moves" }, ...record.actions.map((/** @type {string} */ a, /** @type {number} */ i) =>
      h("li", {}, h("button", { type: "button", class: `move${i + 1 === step ? " current" : ""}`, onclick: () => void go(i + 1) }, shownNotation(a)))));
    const over = (current.events ?? []).find((/** @type {any} */ e) => e.kind === "game_over");
    fill(app,
      h("header", { class: "top table-top" },
        h("a", { href: "/", class: "home" }, t("cards.title")),
        h("span", { class: "status" }, `${t("replay.title")} · ${t("replay.step", { n: step, m: steps })}`),
        langSwitch()),
      h("main", { class: "table-layout cards-table" },
        h("section", { class: "board-area layout-area" }, h("div", { class: "layout-wrap" }, drawing.svg), tableStrip(view),
          step === steps && spectator.outcome ? scoringPanel(spectator.outcome, name, over ? String(over.reason) : null) : null),
        h("aside", { class: "side" },
          h("section", { class: "panel replay-controls" },
            h("div", { class: "row" },
              button(`⏮ ${t("replay.start")}`, 0, "first"), button(`◀ ${t("replay.back")}`, step - 1, "prev"),
              button(`${t("replay.forward")} ▶`, step + 1, "next"), button(`${t("replay.end")} ⏭`, steps, "last")),
            slider,
            h("ol", { class: "log" }, ...stepView),
            h("button", { type: "button", onclick: download }, t("replay.download"))),
          h("section", { class: "panel" }, h("h2", {}, t("cards.replay.piles")), seats),
          h("section", { class: "panel" }, moves))));
    document.title = `${t("replay.title")} · ${t("cards.title")}`;
  };

  const download = () => {
    const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `euphrates-${gameId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  };

  document.addEventListener("keydown", (e) => {
    if (/** @type {HTMLElement} */ (e.target).closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft") void go(step - 1);
    else if (e.key === "ArrowRight") void go(step + 1);
    else if (e.key === "Home") void go(0);
    else if (e.key === "End") void go(steps);
  });
  onLang(render);
  const wanted = Number(new URLSearchParams(location.search).get("step") ?? NaN);
  await go(Number.isInteger(wanted) ? wanted : 0);
}
