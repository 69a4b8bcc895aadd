// The replay page (/replay/{id}) of an ended game: its record (GET …/record), then the
// game's replay module (`board/replay.js`, `cards/replay.js`), which draws each step
// and hands the stepping to shared/replayer.js.

import { fetchRecord } from "./shared/api.js";
import { byId } from "./shared/dom.js";
import { errorText, loadWords, t, useTexts } from "./shared/i18n.js";
import { ServerError } from "./shared/net.js";
import { fatalPage } from "./shared/pages.js";

/**
 * What a game's replay module gives the page.
 * @typedef {{startReplay: (app: HTMLElement, gameId: string, record: {bytes: ArrayBuffer, doc: any}) => Promise<void>}} ReplayModule
 */

/** @type {Record<string, () => Promise<ReplayModule>>} */
const MODULES = {
  board: () => import("./board/replay.js"),
  cards: () => import("./cards/replay.js"),
};

const app = byId("app");
const gameId = /^\/replay\/([A-Za-z0-9_-]{1,32})\/?$/.exec(location.pathname)?.[1] ?? "";

async function start() {
  try {
    const record = await fetchRecord(gameId);
    const load = MODULES[record.doc.game];
    if (!load) {
      fatalPage(app, t("table.no_game"));
      return;
    }
    loadWords(record.doc.game).catch(() => {}); // beside the modules; they wait for it
    // a guided game's guide is named in the tour's words ("level.tour")
    if ((record.doc.seats ?? []).includes("bot:tour")) await useTexts("tour");
    await (await load()).startReplay(app, gameId, record);
  } catch (e) {
    fatalPage(app, e instanceof ServerError && e.code === "record_unavailable" ? t("replay.unavailable") : errorText(e));
  }
}

void start();
