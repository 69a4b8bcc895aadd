// The table page (/g/{id}): reads the seat and host tokens from the fragment,
// takes the seats (asking for a name the first time), connects, and hands the
// game to its table module: board now, cards next to it.

import { call } from "./shared/api.js";
import { byId, fill, h } from "./shared/dom.js";
import { errorText, langSwitch, listing, loadWords, onLang, refusal, t, useTexts } from "./shared/i18n.js";
import { readFragment, remember, savedName, saveName } from "./shared/mygames.js";
import { Connection } from "./shared/net.js";
import { fatalPage, seatName } from "./shared/pages.js";
import { dynastyOf } from "./shared/pieces.js";
import { setRulesOpener } from "./shared/rulelinks.js";

/** @typedef {import("./shared/types.js").TableHost} TableHost */
/** @typedef {import("./shared/types.js").TableModule} TableModule */

/**
 * A game's table module: the table, and how the game names itself, its bots and its
 * dynasties (for the invitation, before the table is there).
 * @typedef {{createTable: (host: TableHost) => Promise<TableModule>, WORDS: import("./shared/seating.js").Words}} GameModule
 */

setRulesOpener((game, anchor) => void import("./rules/reference.js").then((m) => m.openPanel(game, anchor)));

/** @type {Record<string, () => Promise<GameModule>>} */
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
  const load = MODULES[doc.game.game];
  if (!load) {
    fatal(t("table.no_game"));
    return;
  }
  // The game's module first: its texts name the game and its seats in the invitation.
  // Its words come beside it (its words module waits for them).
  loadWords(doc.game.game).catch(() => {});
  const mod = await load();
  const untaken = held.filter((s) => !doc.game.seats[s]?.taken);
  if (untaken.length) {
    const name = await askName(doc.game, untaken, mod.WORDS);
    try {
      await call(`/api/games/${gameId}/join`, { method: "POST", body: { name }, tokens: seatTokens });
    } catch (e) {
      fatal(errorText(e));
      return;
    }
  }
  /** @type {TableModule|null} */
  let table = null;
  /** @type {{update: () => void}|null} */
  let tour = null;
  const conn = new Connection(gameId, tokens, null, {
    onState: () => { table?.render(); tour?.update(); },
    onStep: (step) => table?.step(step),
    onChat: (line) => table?.chat(line),
    onLink: (online) => table?.link(online),
    // The seats this page holds changed (taken at an open table, left, or a bot's now),
    // or its account did (disabled, deleted): the page starts again and is told what it
    // holds now.
    onClosed: (code, message) => (code === "seats_changed" || code === "account_changed"
      ? location.reload()
      : fatal(t("table.closed", { message: refusal(code, message, null) }))),
  });
  const guided = doc.game.seats.some((/** @type {{level: string|null}} */ s) => s.level === "tour");
  // the guide's seat is named in the tour's words ("level.tour"): there before it is drawn
  if (guided) await useTexts("tour");
  table = await mod.createTable({ root: app, conn, hostToken });
  // A guided first game (its opponent is the tour's script) loads the tour beside it.
  if (held.includes(0) && guided) {
    const { startTour } = await import("./tour/tour.js");
    tour = await startTour({ conn, gameId, game: doc.game.game, tokens: seatTokens });
  }
  conn.connect();
}

/**
 * The invitation: the game, who invites (the people already seated), the seats the
 * link opens and who else plays; then the name to join with.
 * @param {import("./shared/types.js").GameMeta} game
 * @param {number[]} mine the seats the link opens, not yet taken
 * @param {import("./shared/seating.js").Words} words how the game names itself and its seats
 * @returns {Promise<string>}
 */
function askName(game, mine, words) {
  return new Promise((resolve) => {
    const input = h("input", { type: "text", maxlength: 40, value: savedName(), id: "your-name", required: true });
    // Drawn again in the other language while asking; not once the table is there.
    let asking = true;
    const draw = () => {
      const name = (/** @type {number} */ s) => seatName(game.seats[s], s, words);
      const seat = (/** @type {number} */ s, key = "invite.seat") => t(key, { n: s + 1, dynasty: t(`${words.dynasty}${dynastyOf(s)}`) });
      const hosts = game.seats.filter((s) => s.kind === "human" && s.taken).map((s) => name(s.seat));
      const others = game.seats.filter((s) => !mine.includes(s.seat));
      fill(app, h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch()),
        h("main", { class: "message" },
          h("form", {
            class: "card ask-name",
            onsubmit: (/** @type {Event} */ e) => {
              e.preventDefault();
              const chosen = input.value.trim();
              if (!chosen) return;
              saveName(chosen);
              asking = false;
              resolve(chosen);
            },
          },
          h("h1", { class: "invite-game" }, t(words.title)),
          h("p", { class: "invite-from" }, hosts.length
            ? t("invite.from", { names: listing(hosts), k: hosts.length, players: game.players })
            : t("invite.anon", { players: game.players })),
          h("p", { class: "invite-seat" }, t("invite.yours", { seats: listing(mine.map((s) => seat(s, "invite.your_seat"))) })),
          others.length ? h("ul", { class: "invite-others" }, ...others.map((s) =>
            h("li", {}, `${seat(s.seat)}: ${s.taken || s.kind === "bot" ? name(s.seat) : t("invite.free")}`))) : null,
          h("label", { for: "your-name" }, t("lobby.your_name")), input,
          h("button", { type: "submit", class: "primary" }, t("lobby.join_btn")))));
      input.focus();
    };
    draw();
    onLang(() => { if (asking) draw(); });
  });
}

void start();
