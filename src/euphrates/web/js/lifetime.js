// The profile's lifetime statistics (GET /api/users/{name}/lifetime, docs/server.md):
// a choice of games (all, or one game and number of players), the figures, the
// opponents met most often head to head, the end-of-game statistics summed; and the
// chart of a rating's history with its axes (dates, ratings), its title and
// description, and the same figures as a table.

import { h, s } from "./shared/dom.js";
import { currentLang, t } from "./shared/i18n.js";

export const LIFETIME_CSS = "/static/css/lifetime.css";

/** The set shown, by "game:players" ("all" for every game): kept across drawings. */
let chosen = "all";
let charts = 0;

/** @param {any} set */
function setKey(set) {
  return set.game === null ? "all" : `${set.game}:${set.players}`;
}

/** @param {number} n @param {number} [digits] */
function num(n, digits = 2) {
  return new Intl.NumberFormat(currentLang(), { maximumFractionDigits: digits }).format(n);
}

/** @param {number|null} n */
function percent(n) {
  return n === null ? "–" : new Intl.NumberFormat(currentLang(), { style: "percent", maximumFractionDigits: 1 }).format(n);
}

/**
 * The lifetime section of a profile.
 * @param {any} doc the route's answer
 * @param {(game: string) => string} gameName
 * @param {() => void} redraw draws the page again (after a choice)
 */
export function lifetimeSection(doc, gameName, redraw) {
  /** @type {any[]} */
  const sets = doc.sets;
  const set = sets.find((x) => setKey(x) === chosen) ?? sets[0];
  const title = (/** @type {any} */ x) => x.game === null ? t("life.all") : t("lobby.vs", { game: gameName(x.game), players: x.players });
  const pick = h("select", { id: "life-set", onchange: () => { chosen = pick.value; redraw(); document.getElementById("life-set")?.focus(); } },
    ...sets.map((x) => h("option", { value: setKey(x), selected: x === set }, title(x))));
  return h("section", { class: "card lifetime", "aria-labelledby": "life-title", "data-set": setKey(set) },
    h("h2", { id: "life-title" }, t("life.title")),
    h("p", { class: "hint" }, t("life.counts")),
    h("label", { class: "life-pick" }, t("life.show"), pick),
    set.games || set.aborted || set.abandoned ? figures(set) : h("p", { class: "hint" }, t("life.none")),
    set.games ? opponents(set) : null,
    set.games ? summed(set) : null);
}

/** The figures, each in a box of its own; what three of them mean in a note below.
 * @param {any} set */
function figures(set) {
  /** @type {[string, string][]} */
  const rows = [
    ["games", num(set.games)],
    ["wins", num(set.wins)],
    ["win_rate", percent(set.win_rate)],
    ["average_place", set.average_place === null ? "–" : num(set.average_place)],
    ["average_score", set.average_score === null ? "–" : num(set.average_score, 1)],
    ["best_score", set.best_score === null ? "–" : num(set.best_score)],
    ["rated", num(set.rated)],
    ["left", num(set.left)],
    ["aborted", num(set.aborted)],
    ["abandoned", num(set.abandoned)],
  ];
  return h("div", { class: "life-block" },
    h("dl", { class: "life-figures" }, ...rows.map(([key, value]) =>
      h("div", { class: "figure", "data-figure": key }, h("dt", {}, t(`life.${key}`)), h("dd", {}, value)))),
    h("p", { class: "hint life-notes" }, t("life.notes")));
}

/** @param {any} o */
function opponentName(o) {
  if (o.kind === "account") return h("a", { href: `/u/${encodeURIComponent(o.name)}` }, o.name);
  if (o.kind === "deleted") return h("span", { class: "hint" }, t("life.deleted"));
  if (o.kind === "bot") return t("life.bot", { level: t(`level.${o.level}`) });
  return t("life.guest");
}

/** The head-to-head table: who this player met most often, and who finished above.
 * @param {any} set */
function opponents(set) {
  if (!set.opponents.length) return h("p", { class: "hint" }, t("life.no_opponents"));
  const cols = ["games", "above", "below", "tied"];
  return h("div", { class: "life-block" },
    h("h3", { id: "life-opponents" }, t("life.opponents")),
    // focusable, so that a keyboard scrolls it where the table is wider than a phone
    h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-labelledby": "life-opponents" },
      h("table", { class: "head-to-head", "aria-labelledby": "life-opponents" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("life.opponent")),
          ...cols.map((c) => h("th", { scope: "col" }, t(`life.h2h_${c}`))))),
        h("tbody", {}, ...set.opponents.map((/** @type {any} */ o) =>
          h("tr", { "data-kind": o.kind, "data-name": o.name ?? o.level ?? o.kind },
            h("th", { scope: "row" }, opponentName(o)),
            ...cols.map((c) => h("td", { "data-col": c }, num(o[c])))))))),
    h("p", { class: "hint" }, t("life.h2h_hint")));
}

const CONFLICT_KEYS = ["won_attacking", "lost_attacking", "won_defending", "lost_defending"];
const COLOURS = ["red", "blue", "green", "black"];

/** The end-of-game statistics summed over the set's games.
 * @param {any} set */
function summed(set) {
  const st = set.stats;
  const built = set.game === "board" ? "stats.monuments" : set.game === "cards" ? "stats.ships" : "life.built";
  const placed = set.game === "board" ? "stats.placed_tiles" : set.game === "cards" ? "stats.placed_cards" : "life.placed";
  /** @type {[string, number][]} */
  const rows = [];
  for (const which of ["revolts", "wars"]) {
    for (const k of CONFLICT_KEYS) rows.push([`${t(`stats.${which}`)}: ${t(`stats.${k}`)}`, st[which][k]]);
  }
  rows.push([t(built), st.monuments], [t("stats.treasures"), st.treasures],
    [t("stats.catastrophes"), st.catastrophes], [t(placed), st.placed]);
  for (const c of COLOURS) rows.push([`${t("stats.points")}: ${t(`colour.${c}`)}`, st.points[c]]);
  return h("div", { class: "life-block" },
    h("h3", { id: "life-stats" }, t("life.stats")),
    h("table", { class: "life-stats", "aria-labelledby": "life-stats" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("life.figure")),
        h("th", { scope: "col" }, t("life.total")), h("th", { scope: "col" }, t("life.per_game")))),
      h("tbody", {}, ...rows.map(([label, n]) => h("tr", {},
        h("th", { scope: "row" }, label), h("td", {}, num(n)), h("td", {}, num(n / set.games, 1)))))));
}

/**
 * A rating's history as a chart with axes — the dates across, the shown rating up —
 * an SVG with a title and a description, and the same points as a table beneath.
 * @param {string} label the game and player-count group
 * @param {{before: number, after: number, at: string}[]} games oldest first
 * @param {number} now the rating shown now
 */
export function ratingChart(label, games, now) {
  const id = `rating-chart-${++charts}`;
  // Each game at its date; the rating before the first at the left edge, where the
  // line starts (a single game, or games of one moment, stand at the right edge).
  const W = 320, H = 150, L = 42, R = 12, T = 10, B = 34, GAP = 26;
  const times = games.map((g) => Date.parse(g.at));
  const t0 = times.length ? Math.min(...times) : Date.now();
  const t1 = times.length ? Math.max(...times) : t0;
  const x = (/** @type {number} */ at) => t1 > t0 ? L + GAP + ((at - t0) / (t1 - t0)) * (W - R - L - GAP) : W - R;
  const points = [
    { x: L, value: games.length ? games[0].before : now },
    ...games.map((g, i) => ({ x: x(times[i]), value: g.after })),
  ];
  const values = points.map((p) => p.value);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const y = (/** @type {number} */ v) => H - B - ((v - lo) / (hi - lo)) * (H - B - T);
  const lang = currentLang();
  const long = t1 - t0 >= 2 * 86400000;
  const when = (/** @type {number} */ at) => new Date(at).toLocaleString(lang, long
    ? { day: "numeric", month: "short", year: "2-digit" }
    : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  const ink = { fill: "#4a3b28", "font-size": 10 };
  const ticks = [...new Set([lo, Math.round((lo + hi) / 2), hi].map(Math.round))].flatMap((v) => [
    s("line", { x1: L - 3, x2: W - R, y1: y(v), y2: y(v), stroke: v === Math.round(lo) ? "#8a7556" : "#e6dcc6" }),
    s("text", { ...ink, class: "tick-y", x: L - 5, y: y(v) + 3, "text-anchor": "end" }, String(v)),
  ]);
  const marks = !games.length ? [] : when(t0) === when(t1) ? [t1] : [t0, t1];
  const dates = marks.map((at, i, all) => s("text", {
    ...ink, class: "tick-x", x: x(at), y: H - B + 13, "text-anchor": all.length === 1 || i ? "end" : "start",
  }, when(at)));
  const line = points.map((p) => `${p.x.toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const last = points[points.length - 1];
  const desc = t("ratings.chart_desc", {
    n: games.length, from: when(t0), to: when(t1), low: Math.min(...values), high: Math.max(...values), now,
  });
  const svg = s("svg", { class: "history", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${id}-title ${id}-desc`, "data-points": points.length },
    s("title", { id: `${id}-title` }, t("ratings.chart_title", { what: label })),
    s("desc", { id: `${id}-desc` }, desc),
    s("rect", { x: 0, y: 0, width: W, height: H, fill: "#fffaf0", stroke: "#c2ab7c", rx: 4 }),
    s("line", { x1: L, x2: L, y1: T, y2: H - B, stroke: "#8a7556" }), ...ticks, ...dates,
    s("text", { ...ink, class: "axis-x", x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" }, t("ratings.axis_date")),
    s("text", { ...ink, class: "axis-y", x: 10, y: (H - B) / 2, "text-anchor": "middle", transform: `rotate(-90 10 ${(H - B) / 2})` }, t("ratings.axis_rating")),
    s("polyline", { points: line, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
    s("circle", { cx: last.x, cy: y(last.value), r: 3, fill: "currentColor" }));
  const rows = games.map((g) => h("tr", {},
    h("td", {}, new Date(g.at).toLocaleString(lang)), h("td", {}, String(g.before)), h("td", {}, String(g.after))));
  return h("figure", { class: "rating-chart" }, svg,
    h("details", { class: "rating-table" },
      h("summary", {}, t("ratings.as_table")),
      h("table", {},
        h("caption", {}, t("ratings.history", { values: values.join(", ") })),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("ratings.col_date")),
          h("th", { scope: "col" }, t("ratings.col_before")), h("th", { scope: "col" }, t("ratings.col_after")))),
        h("tbody", {}, ...rows))));
}
