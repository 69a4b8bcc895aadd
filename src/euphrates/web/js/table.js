// The table page (/g/{id}): reads the seat and host tokens from the fragment,
// takes the seats (asking for a name the first time), connects, and hands the
// game to its table module: board now, cards next to it.

import { call } from "./api.js";
import { byId, fill, h } from "./dom.js";
import { errorText, langSwitch, onLang, refusal, t } from "./i18n.js";
import { readFragment, remember, savedName, saveName } from "./mygames.js";
import { Connection } from "./net.js";
import { fatalPage } from "./pages.js";

/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./types.js").ChatLine} ChatLine */

/**
 * What a game's table module gives the page.
 * @typedef {object} TableModule
 * @property {() => void} render the views or the game changed (or the language)
 * @property {(step: Step) => void} step a new step arrived (before render)
 * @property {(line: ChatLine) => void} chat
 * @property {(online: boolean) => void} link
 */

/**
 * @typedef {object} TableHost
 * @property {HTMLElement} root where the module draws
 * @property {Connection} conn
 * @property {string|null} hostToken
 */

/** @type {Record<string, () => Promise<{createTable: (host: TableHost) => Promise<TableModule>}>>} */
const MODULES = {
  board: () => import("./board/table.js"),
  cards: () => import("./cards/table.js"),
};

const app = byId("app");
const match = /^\/g\/([A-Za-z0-9_-]{1,32})\/?$/.exec(location.pathname);
const gameId = match?.[1] ?? "";
const { seats: seatTokens, host: hostToken } = readFragment(location.hash);
const tokens = [...seatTokens, ...(hostToken ? [hostToken] : [])];

/** @param {string} message */
function fatal(message) {
  fatalPage(app, message);
}

async function start() {
  if (!gameId) {
    fatal(t("table.no_game"));
    return;
  }
  fill(app, h("p", { class: "connecting" }, t("table.connecting")));
  let doc;
  try {
    doc = await call(`/api/games/${gameId}`, { tokens });
  } catch (e) {
    fatal(errorText(e));
    return;
  }
  const held = /** @type {number[]} */ (doc.you?.seats ?? []);
  remember({ id: gameId, game: doc.game.game, players: doc.game.players, seats: seatTokens, status: doc.game.status, ...(hostToken ? { host: hostToken } : {}) });
  const untaken = held.filter((s) => !doc.game.seats[s]?.taken);
  if (untaken.length) {
    const name = await askName();
    try {
      await call(`/api/games/${gameId}/join`, { method: "POST", body: { name }, tokens: seatTokens });
    } catch (e) {
      fatal(errorText(e));
      return;
    }
  }
  /** @type {TableModule|null} */
  let table = null;
  const conn = new Connection(gameId, tokens, null, {
    onState: () => table?.render(),
    onStep: (step) => table?.step(step),
    onChat: (line) => table?.chat(line),
    onLink: (online) => table?.link(online),
    onClosed: (code, message) => fatal(t("table.closed", { message: refusal(code, message, null) })),
  });
  const load = MODULES[doc.game.game];
  if (!load) {
    fatal(t("table.no_game"));
    return;
  }
  const mod = await load();
  table = await mod.createTable({ root: app, conn, hostToken });
  onLang(() => table?.render());
  conn.connect();
}

/** @returns {Promise<string>} */
function askName() {
  return new Promise((resolve) => {
    const input = h("input", { type: "text", maxlength: 40, value: savedName(), id: "your-name", "aria-label": t("lobby.your_name"), required: true });
    fill(app, h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch()),
      h("main", { class: "message" },
        h("form", {
          class: "card ask-name",
          onsubmit: (/** @type {Event} */ e) => {
            e.preventDefault();
            const name = input.value.trim();
            if (!name) return;
            saveName(name);
            resolve(name);
          },
        }, h("label", { for: "your-name" }, t("lobby.your_name")), input, h("button", { type: "submit", class: "primary" }, t("lobby.join_btn")))));
    input.focus();
  });
}

void start();
