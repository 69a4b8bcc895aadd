// The leaderboards (/leaderboards?game=cards&players=2): the best rated accounts of a
// game and player-count group with the bot levels' fixed ratings among them; each
// account's name leads to its profile.

import { loadAccount } from "./shared/account.js";
import { call } from "./shared/api.js";
import { byId, fill, h } from "./shared/dom.js";
import { errorText, langSwitch, onLang, t } from "./shared/i18n.js";

const app = byId("app");
const query = new URLSearchParams(location.search);
const choice = {
  game: query.get("game") === "board" ? "board" : "cards",
  players: query.get("players") === "3-4" ? "3-4" : "2",
};
/** @type {any} */
let board = null;
/** @type {string|null} */
let problem = null;

/** @param {string} game */
function gameName(game) {
  return t(`lobby.${game === "cards" ? "cards" : "board"}`);
}

/**
 * A segmented choice that loads the board chosen.
 * @param {string} label
 * @param {"game"|"players"} key
 * @param {[string, string][]} options value and words
 */
function segmented(label, key, options) {
  return h("div", { class: "segmented", role: "radiogroup", "aria-label": label },
    ...options.map(([value, words]) => h("button", {
      type: "button", role: "radio", "aria-checked": String(choice[key] === value), [`data-${key}`]: value,
      onclick: () => { choice[key] = value; void load(); },
    }, words)));
}

function render() {
  document.title = `${t("ratings.leaderboards")} · ${t("app.title")}`;
  const entries = /** @type {any[]} */ (board?.entries ?? []);
  fill(app,
    h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch()),
    h("main", { class: "profile leaderboard" },
      h("section", { class: "card", "aria-labelledby": "board-title" },
        h("h1", { id: "board-title" }, t("ratings.leaderboards")),
        h("div", { class: "field" }, segmented(t("lobby.game"), "game", [["board", gameName("board")], ["cards", gameName("cards")]])),
        h("div", { class: "field" }, segmented(t("lobby.players"), "players", [["2", t("ratings.two")], ["3-4", t("ratings.more")]])),
        problem ? h("p", { class: "error", role: "alert" }, problem) : null,
        board && !entries.some((e) => !e.bot) ? h("p", { class: "hint" }, t("ratings.nobody")) : null,
        board ? h("table", { class: "board-table", "data-game": board.game, "data-players": board.players },
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("ratings.player")),
            h("th", { scope: "col" }, t("ratings.rating")), h("th", { scope: "col" }, t("ratings.games_col")))),
          h("tbody", {}, ...entries.map((e) => h("tr", { class: e.bot ? "bot" : "person", "data-name": e.name },
            h("td", {}, String(e.place)),
            h("td", {}, e.bot
              ? h("span", {}, t("lobby.bot", { level: t(`level.${e.name}`) }), " ", h("span", { class: "tag" }, t("ratings.bot")))
              : h("a", { href: `/u/${encodeURIComponent(e.name)}` }, e.name)),
            h("td", { class: "value" }, h("span", { class: "number" }, String(e.rating)), e.provisional ? h("span", { class: "tag", title: t("ratings.provisional_hint") }, t("ratings.provisional_tag")) : null),
            h("td", {}, String(e.games))))))
          : null,
        h("p", { class: "hint" }, t("ratings.explain")))));
}

async function load() {
  history.replaceState(null, "", `/leaderboards?game=${choice.game}&players=${choice.players}`);
  try {
    board = await call(`/api/leaderboards/${choice.game}?players=${encodeURIComponent(choice.players)}`);
    problem = null;
  } catch (e) {
    problem = errorText(e);
  }
  render();
}

async function start() {
  render();
  await loadAccount().catch(() => {});
  await load();
}

onLang(render);
void start();
