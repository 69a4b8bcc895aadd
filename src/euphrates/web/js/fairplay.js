// The fair-play page (/fair-play): the rules the server keeps (docs/fair-play.md), for
// players, in their language. Every figure — decisions before a game counts, aborts a
// day, games a day between two accounts, the forfeit's grace, missed deadlines, days of
// vacation, hints a minute, the bots' levels a rated table seats — is what the server
// says it keeps (`GET /api/meta`), marked `data-figure` in the page.

import { useTexts, currentLang, errorText, langSwitch, onLang, rich, t } from "./shared/i18n.js";
import { byId, fill, h } from "./shared/dom.js";
import { offerOnce } from "./shared/offer.js";
import { fatalPage } from "./shared/pages.js";

await useTexts("fairplay");

const app = byId("app");
/** @type {import("./shared/offer.js").Offer|null} */
let offer = null;
/** @type {string|null} why the server's figures could not be read */
let problem = null;

/**
 * A figure as the page shows it, marked with what it is.
 * @param {string} name its name in `fair_play` (or a group of levels)
 * @param {string} text
 */
function figure(name, text) {
  return h("strong", { class: "figure", "data-figure": name }, text);
}

/**
 * A number as this page's language writes it (60, 2.5 → 2,5).
 * @param {number} n
 */
function number(n) {
  return n.toLocaleString(currentLang(), { maximumFractionDigits: 2 });
}

/**
 * A paragraph whose `{n}` is the figure `name` of the server's fair-play rules.
 * @param {string} key
 * @param {keyof import("./shared/offer.js").FairPlay} name
 */
function ruled(key, name) {
  const n = offer?.fair?.[name] ?? 0;
  return h("p", {}, ...rich(key, { n }, { n: figure(name, number(n)) }));
}

/**
 * The levels a rated table seats in a player-count group, over the games offered; a
 * level measured in one game only says which.
 * @param {"2"|"3-4"} group
 */
function levelsOf(group) {
  const o = /** @type {import("./shared/offer.js").Offer} */ (offer);
  const measured = o.games.map((g) => new Set(o.rated[g]?.[group] ?? []));
  const levels = o.levels.filter((l) => measured.some((m) => m.has(l))).map((l) => {
    const games = o.games.filter((_g, i) => measured[i].has(l));
    const level = t(`level.${l}`);
    return games.length === 1 && o.games.length > 1 ? t(`fairplay.only.${games[0]}`, { level }) : level;
  });
  const words = levels.length > 1 ? `${levels.slice(0, -1).join(", ")}${t("fairplay.and")}${levels.at(-1)}` : levels[0];
  return figure(`levels-${group}`, words ?? t("fairplay.none"));
}

/**
 * A section of the rules.
 * @param {string} id
 * @param {string} title the key of its heading
 * @param {...(Node|null)} body
 */
function section(id, title, ...body) {
  return h("section", { class: "fair-section", "aria-labelledby": `fair-${id}` }, h("h2", { id: `fair-${id}` }, t(title)), ...body);
}

function render() {
  document.title = `${t("fair.title")} · ${t("app.title")}`;
  if (problem) {
    fatalPage(app, problem);
    return;
  }
  const header = h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch());
  if (!offer) {
    fill(app, header, h("main", { class: "fair-play", "aria-busy": "true" }, h("h1", {}, t("fair.title"))));
    return;
  }
  fill(app, header,
    h("main", { class: "fair-play" },
      h("article", { class: "card" },
        h("h1", { id: "fair-title" }, t("fair.title")),
        h("p", { class: "intro" }, t("fairplay.intro")),
        section("rated", "fairplay.rated.title",
          h("p", {}, ...rich("fairplay.rated", {}, { levels2: levelsOf("2"), levels34: levelsOf("3-4") }))),
        section("played", "fairplay.played.title",
          ruled("fairplay.played", "min_decisions"), h("p", {}, t("fairplay.abort")), ruled("fairplay.abort_limit", "abort_limit")),
        section("loss", "fairplay.loss.title",
          h("p", {}, t("fairplay.loss")),
          h("ul", {}, h("li", {}, t("fairplay.loss_duel")), h("li", {}, t("fairplay.loss_more"))),
          h("p", {}, t("fairplay.last")), h("p", {}, t("fairplay.seats"))),
        section("pair", "fairplay.pair.title", ruled("fairplay.pair", "pair_limit")),
        section("second", "fairplay.second.title", ruled("fairplay.second", "marks_days")),
        section("deserters", "fairplay.deserters.title",
          ruled("fairplay.realtime", "forfeit_grace"), ruled("fairplay.turn", "misses"), h("p", {}, t("fairplay.forfeit"))),
        section("vacation", "fairplay.vacation.title",
          ruled("fairplay.vacation", "vacation_days"),
          h("p", {}, h("a", { href: "/account/notifications", id: "to-vacation" }, t("fairplay.vacation_link")))),
        section("hints", "fairplay.hints.title", ruled("fairplay.hints", "hints_per_minute")),
        section("moderation", "fairplay.moderation.title",
          h("p", {}, t("fairplay.report")), h("p", {}, t("fairplay.block")), h("p", {}, t("fairplay.void"))),
        section("accounts", "fairplay.accounts.title", h("p", {}, t("fairplay.logins"))))));
}

async function start() {
  render();
  try {
    offer = await offerOnce();
  } catch (e) {
    problem = errorText(e);
  }
  render();
}

onLang(render);
void start();
