// The replay viewer (/replay/{id}) for ended games: every step's views and events
// from GET /api/games/{id}/replay/{n}, stepped with buttons or arrow keys; the
// record (GET …/record) for download, as the server's bytes, and for the list of moves. A card game is
// handed to cards/replay.js; the stepping itself is replayer.js.

import { boardMaps, fetchRecord } from "./shared/api.js";
import { byId, fill, h } from "./shared/dom.js";
import { errorText, t } from "./shared/i18n.js";
import { ServerError } from "./shared/net.js";
import { fatalPage } from "./shared/pages.js";
import { Replayer } from "./shared/replayer.js";
import { BoardDrawing } from "./board/draw.js";
import { COLOURS, LEADERS, LEADER_COLOUR, dynastyOf } from "./shared/pieces.js";
import { scoringPanel } from "./board/scoring.js";
import { leaderIcon, tileIcon } from "./shared/symbols.js";
import { shownNotation, stepEntry, touched } from "./board/words.js";

const app = byId("app");
const gameId = /^\/replay\/([A-Za-z0-9_-]{1,32})\/?$/.exec(location.pathname)?.[1] ?? "";

/**
 * @param {any} maps the board's two sides
 * @returns {(r: Replayer) => void}
 */
function boardPainter(maps) {
  /** @type {BoardDrawing|null} */
  let drawing = null;
  return (r) => {
    const current = r.current;
    const view = current.views.spectator;
    if (!drawing) {
      drawing = new BoardDrawing(view.options?.advanced ? maps.advanced : maps.standard, (sq) => sq);
    }
    drawing.render(view);
    drawing.mark({ last: touched(current.events ?? []) });
    const name = (/** @type {number} */ s) => r.name(s);
    const hands = h("ol", { class: "replay-hands" }, ...current.views.spectator.seats.map((/** @type {any} */ _s, /** @type {number} */ i) => {
      const own = current.views[String(i)]?.seats?.[i];
      return h("li", {},
        leaderIcon("black", dynastyOf(i), 22), h("span", { class: "seat-name" }, name(i)),
        h("span", { class: "mini-hand" }, ...COLOURS.flatMap((c) => Array.from({ length: own?.hand?.[c] ?? 0 }, () => tileIcon(c, 20, t(`tile.${c}`))))),
        h("span", { class: "off-leaders" }, ...LEADERS.filter((l) => !own?.leaders?.[l]).map((l) => leaderIcon(LEADER_COLOUR[l], dynastyOf(i), 16, t(`leader.${l}`)))),
        h("span", { class: "points" }, ...COLOURS.map((c) => h("span", { class: `pt ${c}` }, tileIcon(c, 14), String(own?.points?.[c] ?? 0)))));
    }));
    fill(r.app,
      r.header("app.title"),
      h("main", { class: "table-layout" },
        h("section", { class: "board-area" }, h("div", { class: "board-wrap" }, drawing.svg)),
        h("aside", { class: "side" },
          r.controls(stepEntry, { name, perspective: null }),
          h("section", { class: "panel" }, h("h2", {}, t("replay.hands")), hands),
          r.step === r.steps && view.outcome ? scoringPanel(view.outcome, name) : null,
          h("section", { class: "panel" }, r.moves(shownNotation)))));
    document.title = `${t("replay.title")} · ${t("app.title")}`;
  };
}

async function start() {
  let replayer;
  try {
    const record = await fetchRecord(gameId);
    if (record.doc.game === "cards") {
      await (await import("./cards/replay.js")).startReplay(app, gameId, record);
      return;
    }
    const maps = await boardMaps();
    replayer = new Replayer(app, gameId, record, { bot: "table.bot_name", dynasty: "dynasty." }, boardPainter(maps));
  } catch (e) {
    fatalPage(app, e instanceof ServerError && e.code === "record_unavailable" ? t("replay.unavailable") : errorText(e));
    return;
  }
  await replayer.start();
}

void start();
