// A player's profile (/u/{name}): games per game, the ratings per game and player-count
// group with a chart of their history, the lifetime statistics (lifetime.js), the rated
// games and the latest ended games with their replays; on one's own profile, the export
// of one's data and the deletion of the account; on another's, signed in, a report to
// the admins and a block.

import { account, loadAccount } from "./shared/account.js";
import { call } from "./shared/api.js";
import { byId, fill, h, stylesheet } from "./shared/dom.js";
import { currentLang, errorText, langSwitch, onLang, t, useTexts } from "./shared/i18n.js";
import { fatalPage } from "./shared/pages.js";
import { MODERATION_CSS, flagIcon, openReport } from "./shared/report.js";
import { LIFETIME_CSS, lifetimeSection, ratingChart } from "./lifetime.js";

const app = byId("app");
const match = /^\/u\/([^/]{1,200})\/?$/.exec(location.pathname);
const name = match?.[1] ? decodeURIComponent(match[1]) : "";
/** @type {any} */
let profile = null;
/** The lifetime statistics (null when they could not be read: the rest still shows). */
/** @type {any} */
let lifetime = null;
/** @type {string|null} */
let problem = null;
/** What the last block or unblock said, when it failed. */
let blockError = "";

/** @param {string} game */
function gameName(game) {
  return t(`lobby.${game === "cards" ? "cards" : "board"}`);
}

function render() {
  if (problem) {
    fatalPage(app, problem);
    return;
  }
  if (!profile) return;
  document.title = `${profile.name} · ${t("app.title")}`;
  const me = account();
  const own = me !== null && me.name === profile.name;
  const counts = Object.entries(/** @type {Record<string, number>} */ (profile.games));
  fill(app,
    h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch()),
    h("main", { class: "profile" },
      h("section", { class: "card", "aria-labelledby": "profile-name" },
        h("h1", { id: "profile-name" }, profile.name),
        h("p", { class: "hint" }, t("profile.since", { date: new Date(profile.created).toLocaleDateString(currentLang()) })),
        me !== null && !own ? playerActions() : null,
        h("h2", {}, t("profile.ratings")),
        ratings(),
        h("h2", {}, t("profile.games")),
        counts.length
          ? h("ul", { class: "game-counts" }, ...counts.map(([g, n]) => h("li", {}, t("profile.count", { game: gameName(g), n }))))
          : h("p", { class: "hint" }, t("profile.no_games")),
        profile.rated.length ? h("h2", {}, t("profile.rated")) : null,
        profile.rated.length
          ? h("ul", { class: "finished rated-games" }, ...profile.rated.map((/** @type {any} */ g) => h("li", {},
            h("span", { class: "game-name" }, t("lobby.vs", { game: gameName(g.game), players: g.players })),
            h("span", { class: "place" }, t("profile.place", { place: g.place })),
            h("span", { class: "change" }, `${g.before} → ${g.after}`),
            h("span", { class: "when" }, new Date(g.at).toLocaleDateString(currentLang())),
            h("a", { class: "button small", href: g.replay }, t("lobby.replay")))))
          : null,
        h("h2", {}, t("profile.finished")),
        profile.finished.length
          ? h("ul", { class: "finished" }, ...profile.finished.map((/** @type {any} */ g) => h("li", {},
            h("span", { class: "game-name" }, t("lobby.vs", { game: gameName(g.game), players: g.players })),
            h("span", { class: `status ${g.status}` }, t(`status.${g.status}`)),
            h("span", { class: "when" }, new Date(g.updated).toLocaleDateString(currentLang())),
            g.replay ? h("a", { class: "button small", href: g.replay }, t("lobby.replay")) : null)))
          : h("p", { class: "hint" }, t("profile.none_finished"))),
      lifetime ? lifetimeSection(lifetime, gameName, render) : null,
      own ? ownPanel() : null));
}

/** @param {string} group */
function groupName(group) {
  return t(group === "2" ? "ratings.two" : "ratings.more");
}

/** Each rating (game and group) with its history as a chart, oldest to newest. */
function ratings() {
  if (!profile.ratings.length) return h("p", { class: "hint" }, t("profile.unrated"));
  return h("ul", { class: "ratings" }, ...profile.ratings.map((/** @type {any} */ r) => {
    const games = profile.rated.filter((/** @type {any} */ g) => g.game === r.game && g.group === r.group).reverse();
    return h("li", { class: "rating", "data-game": r.game, "data-group": r.group },
      h("span", { class: "game-name" }, `${gameName(r.game)} · ${groupName(r.group)}`),
      h("strong", { class: "value" }, String(r.rating)),
      h("span", { class: "hint" }, t(r.provisional ? "ratings.provisional" : "ratings.games", { n: r.games })),
      ratingChart(`${gameName(r.game)} · ${groupName(r.group)}`, games, r.rating));
  }));
}

/** Block and report, on another player's profile to a signed-in player. */
function playerActions() {
  const who = profile.name;
  const blocked = profile.blocked === true;
  const path = `/api/users/${encodeURIComponent(who)}`;
  const toggle = async () => {
    try {
      profile.blocked = (await call(`${path}/block`, { method: blocked ? "DELETE" : "POST" })).blocked;
      blockError = "";
    } catch (e) {
      blockError = errorText(e);
    }
    render();
    document.getElementById("block")?.focus();
  };
  const report = () => void openReport({
    title: t("report.title_player", { name: who }),
    quote: null,
    send: (reason) => call(`${path}/report`, { method: "POST", body: { reason } }),
  });
  return h("div", { class: "player-actions" },
    h("div", { class: "row" },
      h("button", { type: "button", class: "small", id: "block", onclick: () => void toggle() }, t(blocked ? "block.unblock" : "block.block", { name: who })),
      h("button", { type: "button", class: "small", id: "report-player", onclick: report }, flagIcon(), t("report.player", { name: who }))),
    h("p", { class: blockError ? "error" : "hint", id: "block-status", role: "status" },
      blockError || t(blocked ? "block.is_blocked" : "block.hint", { name: who })));
}

/** Export and deletion, on one's own profile. */
function ownPanel() {
  const password = h("input", { type: "password", id: "delete-password", autocomplete: "current-password", "aria-label": t("account.password") });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const download = async () => {
    try {
      const doc = await call("/api/account/export");
      const blob = new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" });
      const a = h("a", { href: URL.createObjectURL(blob), download: `euphrates-${profile.name}.json` });
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
    }
  };
  const remove = async () => {
    if (!confirm(t("profile.delete_sure"))) return;
    try {
      await call("/api/account/delete", { method: "POST", body: { password: password.value } });
      location.assign("/");
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
    }
  };
  return h("section", { class: "card own", "aria-labelledby": "own-title" },
    h("h2", { id: "own-title" }, t("profile.yours")),
    h("button", { type: "button", id: "export", onclick: () => void download() }, t("profile.export")),
    h("p", { class: "hint" }, t("profile.delete_hint")),
    h("label", {}, t("account.password"), password),
    h("button", { type: "button", class: "danger", id: "delete-account", onclick: () => void remove() }, t("profile.delete")),
    error);
}

async function start() {
  try {
    await loadAccount();
    const path = `/api/users/${encodeURIComponent(name)}`;
    [profile, lifetime] = await Promise.all([
      call(path),
      call(`${path}/lifetime`).catch(() => null),
      useTexts("common"),
      stylesheet(LIFETIME_CSS),
    ]);
    if (account()) await stylesheet(MODERATION_CSS);
  } catch (e) {
    problem = errorText(e);
  }
  render();
}

onLang(render);
void start();
