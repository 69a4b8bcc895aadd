// A tournament's page (/t/<id>, docs/tournaments.md): what it is, who entered, each
// round's tables (live ones to play or watch), the standings with their tiebreaks and
// the winner; entering, withdrawing and, for its creator, starting it now. Read again
// whenever the lobby's WebSocket says the tournament changed (a table ended, a round
// began), on whichever server that happened, and every half minute besides.

import { account, loadAccount } from "./shared/account.js";
import { call } from "./shared/api.js";
import { byId, fill, h } from "./shared/dom.js";
import { errorText, langSwitch, onLang, t, useTexts } from "./shared/i18n.js";
import { LobbySocket } from "./shared/lobbynet.js";
import { clockWords, kindWords, when } from "./shared/tournaments.js";

await useTexts("tournaments");

const app = byId("app");
const id = decodeURIComponent(location.pathname.split("/")[2] ?? "");
/** @type {any} */
let doc = null;
/** @type {string|null} */
let problem = null;
let busy = false;

/** @param {number} x a score: halves shown as such */
function score(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(x * 2 === Math.round(x * 2) ? 1 : 2);
}

/** @param {string} path */
async function act(path) {
  if (busy) return;
  busy = true;
  try {
    doc = await call(`/api/tournaments/${encodeURIComponent(id)}/${path}`, { method: "POST" });
    problem = null;
  } catch (e) {
    problem = errorText(e);
  } finally {
    busy = false;
  }
  render();
}

function actions() {
  if (!doc || doc.status === "over" || doc.status === "cancelled") return null;
  const you = doc.you;
  if (!account()) return h("p", { class: "hint" }, t("tournaments.sign_in"));
  return h("div", { class: "actions" },
    you.may_join ? h("button", { type: "button", class: "button primary", id: "join", onclick: () => void act("join") }, t("tournaments.join")) : null,
    you.entered && !(you.creator && doc.status === "signup")
      ? h("button", { type: "button", class: "button", id: "leave", onclick: () => void act("leave") }, t("tournaments.leave")) : null,
    you.creator && doc.status === "signup"
      ? h("button", { type: "button", class: "button primary", id: "start", disabled: doc.entrants.filter((/** @type {any} */ e) => !e.withdrew).length < doc.fewest ? "" : null, onclick: () => void act("start") }, t("tournaments.start_now")) : null,
    you.creator && doc.status === "signup" ? h("p", { class: "hint" }, t("tournaments.fewest", { n: doc.fewest })) : null);
}

function standings() {
  if (!doc.standings.length) return null;
  return h("section", { class: "card", "aria-labelledby": "standings-title" },
    h("h2", { id: "standings-title" }, t("tournaments.standings")),
    h("div", { class: "table-scroll" },
      h("table", { class: "board-table standings" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("tournaments.player")),
          h("th", { scope: "col" }, t("tournaments.score")), h("th", { scope: "col" }, t("tournaments.buchholz")),
          h("th", { scope: "col", class: "wide" }, t("tournaments.median")), h("th", { scope: "col" }, t("tournaments.wins")),
          h("th", { scope: "col", class: "wide" }, t("tournaments.played")))),
        h("tbody", {}, ...doc.standings.map((/** @type {any} */ s) => h("tr", { class: s.you ? "you" : null, "data-name": s.name },
          h("td", {}, String(s.rank)),
          h("td", {}, h("a", { href: `/u/${encodeURIComponent(s.name)}` }, s.name),
            s.withdrew ? h("span", { class: "tag" }, t("tournaments.withdrew")) : null,
            s.byes ? h("span", { class: "tag" }, t("tournaments.byes_n", { n: s.byes })) : null),
          h("td", { class: "value" }, score(s.score)), h("td", {}, score(s.buchholz)), h("td", { class: "wide" }, score(s.median)),
          h("td", {}, String(s.wins)), h("td", { class: "wide" }, String(s.played))))))),
    h("p", { class: "hint" }, t("tournaments.tiebreaks")));
}

/** @param {any} table */
function tableRow(table) {
  const me = account()?.name;
  const mine = me !== undefined && table.seats.includes(me);
  return h("li", { class: `round-table${table.over ? " over" : ""}`, "data-game": table.game_id },
    h("span", { class: "number" }, t("tournaments.table_n", { n: table.number })),
    h("ol", { class: "seats" }, ...table.seats.map((/** @type {string|null} */ name, /** @type {number} */ i) => h("li", {},
      name ?? (doc.bots ? t("lobby.bot", { level: t(`level.${doc.bots}`) }) : t("tournaments.bot")),
      table.places ? h("span", { class: `place place-${table.places[i]}` }, t("tournaments.place", { n: table.places[i] })) : null))),
    h("a", { class: `button${mine && !table.over ? " primary" : ""}`, href: table.link },
      table.over ? t("tournaments.replay") : mine ? t("tournaments.play") : t("tournaments.watch")));
}

function rounds() {
  return [...doc.rounds_played].reverse().map((/** @type {any} */ r) => h("section", { class: "card round", "aria-labelledby": `round-${r.round}` },
    h("h2", { id: `round-${r.round}` }, t("tournaments.round_of", { round: r.round, rounds: doc.rounds })),
    h("ul", { class: "round-tables" }, ...r.tables.map(tableRow)),
    r.byes.length ? h("p", { class: "hint byes" }, t("tournaments.byes", { names: r.byes.join(", ") })) : null));
}

function render() {
  document.title = `${doc?.name ?? t("tournaments.title")} · ${t("app.title")}`;
  const top = h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch());
  if (!doc) {
    fill(app, top, h("main", { class: "profile tournament" },
      problem ? h("p", { class: "error", role: "alert" }, problem) : h("p", { class: "hint" }, t("tournaments.loading"))));
    return;
  }
  const state = doc.status === "running" ? t("tournaments.round_of", { round: doc.round, rounds: doc.rounds })
    : doc.status === "signup" ? t("tournaments.starts", { when: when(doc.starts_at) })
      : t(`tournaments.status.${doc.status}`);
  fill(app, top,
    h("main", { class: "profile tournament", "data-status": doc.status },
      h("section", { class: "card", "aria-labelledby": "tournament-title" },
        h("h1", { id: "tournament-title" }, doc.name),
        h("p", { class: "meta" }, kindWords(doc)),
        h("p", { class: "meta" }, [clockWords(doc.clock), doc.rated ? t("tournaments.rated") : t("tournaments.unrated"),
          doc.bots ? t("tournaments.bots_fill", { level: t(`level.${doc.bots}`) }) : t("tournaments.byes_rule")].join(" · ")),
        h("p", { class: "meta" }, t("tournaments.by", { name: doc.creator }), " · ", h("strong", { class: "state" }, state)),
        doc.winner ? h("p", { class: "winner", role: "status" }, t("tournaments.winner", { name: doc.winner })) : null,
        problem ? h("p", { class: "error", role: "alert" }, problem) : null,
        actions(),
        h("h2", {}, t("tournaments.entrants_n", { n: doc.entrants.filter((/** @type {any} */ e) => !e.withdrew).length, most: doc.most })),
        h("ul", { class: "entrants" }, ...doc.entrants.map((/** @type {any} */ e) => h("li", { class: e.withdrew ? "withdrew" : null },
          h("a", { href: `/u/${encodeURIComponent(e.name)}` }, e.name)))),
        h("p", { class: "hint" }, h("a", { href: "/fair-play" }, t("tournaments.fair_play")))),
      standings(),
      ...rounds()));
}

async function load() {
  try {
    doc = await call(`/api/tournaments/${encodeURIComponent(id)}`);
    problem = null;
  } catch (e) {
    problem = errorText(e);
  }
  render();
}

const socket = new LobbySocket(() => {
  if (socket.tournamentsChanged.includes(id)) {
    socket.tournamentsChanged = [];
    void load();
  }
});

async function start() {
  render();
  await loadAccount().catch(() => {});
  await load();
  socket.connect();
  setInterval(() => void load(), 30000);
}

onLang(render);
void start();
