// The lobby's "Open tables": every open table waiting for players that passes the
// filters (shared/tablefilter.js) — the game, its options and clock, who opened it and
// when, each seat with its player's name, rating and presence or free with a "Sit" —
// and the account's own games with who they play and whether those players are online.
// Kept current by the lobby's WebSocket.

import { call } from "./api.js";
import { h } from "./dom.js";
import { currentLang, errorText, t } from "./i18n.js";
import { presenceDot } from "./presence.js";

/** @typedef {import("./lobbynet.js").TableEntry} TableEntry */
/** @typedef {import("./lobbynet.js").TableSeat} TableSeat */

const OPTIONS = ["advanced", "open_scores", "open_piles"];

/**
 * The game's name as the lobby says it.
 * @param {TableEntry} entry
 */
export function gameName(entry) {
  return t(`lobby.${entry.game === "cards" ? "cards" : "board"}`);
}

/**
 * The clock chosen, in words.
 * @param {TableEntry["clock"]} clock
 */
export function clockText(clock) {
  if (!clock) return t("lobby.clock.none");
  if (clock.mode === "turn") return t("lobby.clock.turn", { n: clock.days ?? "?" });
  if (clock.preset) return t(`lobby.clock.${clock.preset}`);
  const bank = Math.round(clock.bank ?? 0);
  return t("tables.clock_custom", { bank: `${Math.floor(bank / 60)}:${String(bank % 60).padStart(2, "0")}`, increment: clock.increment ?? 0 });
}

/**
 * The options chosen, in words.
 * @param {TableEntry} entry
 */
function optionsText(entry) {
  const on = OPTIONS.filter((o) => entry.options[o]).map((o) => t(`lobby.opt.${o}`));
  return on.length ? on.join(" · ") : t("tables.standard");
}

/**
 * A seat's name in the lobby: the player's, a bot's level, or "free".
 * @param {TableSeat} s
 */
function seatText(s) {
  if (s.kind === "bot") return t("lobby.bot", { level: t(`level.${s.level ?? "beginner"}`) });
  if (!s.taken) return t("tables.free");
  return s.name || t("player.default", { n: s.seat + 1 });
}

/**
 * One seat: its number, who sits there and whether they are here, or a "Sit".
 * @param {TableEntry} entry
 * @param {TableSeat} s
 * @param {boolean} canSit
 * @param {(message: string) => void} say
 */
function seatItem(entry, s, canSit, say) {
  const sit = canSit && s.kind === "human" && !s.taken
    ? h("button", {
      type: "button", class: "small primary sit", "data-seat": s.seat,
      "aria-label": t("tables.sit_at", { n: s.seat + 1, game: gameName(entry) }),
      onclick: (/** @type {Event} */ e) => {
        /** @type {HTMLButtonElement} */ (e.currentTarget).disabled = true;
        call(`/api/games/${encodeURIComponent(entry.id)}/sit`, { method: "POST", body: { seat: s.seat } })
          .then(() => location.assign(entry.link), (err) => say(errorText(err)));
      },
    }, t("tables.sit"))
    : null;
  return h("li", { class: `table-seat${s.taken ? "" : " free"}${s.you ? " mine" : ""}`, "data-seat": s.seat },
    h("span", { class: "seat-no", "aria-hidden": "true" }, String(s.seat + 1)),
    h("span", { class: "seat-who" }, seatText(s)),
    typeof s.rating === "number" && s.taken
      ? h("span", { class: "seat-rating", title: t("ratings.rating") }, String(s.rating))
      : null,
    s.creator ? h("span", { class: "tag" }, t("tables.host")) : null,
    s.you ? h("span", { class: "tag" }, t("table.you")) : null,
    presenceDot(s.presence), sit);
}

/**
 * One open table.
 * @param {TableEntry} entry
 * @param {boolean} signedIn
 * @param {(message: string) => void} say
 */
function tableItem(entry, signedIn, say) {
  const mine = entry.seats.some((s) => s.you);
  const leave = mine && !entry.seats.some((s) => s.you && s.creator)
    ? h("button", {
      type: "button", class: "small quiet leave",
      onclick: () => void call(`/api/games/${encodeURIComponent(entry.id)}/leave`, { method: "POST", body: {} })
        .catch((err) => say(errorText(err))),
    }, t("tables.leave"))
    : null;
  const when = new Date(entry.created).toLocaleTimeString(currentLang(), { hour: "2-digit", minute: "2-digit" });
  return h("li", { class: "open-table", "data-id": entry.id },
    h("div", { class: "open-head" },
      h("span", { class: "game-name" }, `${gameName(entry)} · ${t("tables.players", { n: entry.players })}`),
      entry.rated ? h("span", { class: "tag rated" }, t("ratings.rated")) : null,
      h("span", { class: "when" }, entry.creator ? t("tables.by", { name: entry.creator, time: when }) : when)),
    h("p", { class: "open-rules" }, `${optionsText(entry)} · ${clockText(entry.clock)}`),
    h("ul", { class: "table-seats", "aria-label": t("tables.seats") },
      ...entry.seats.map((s) => seatItem(entry, s, signedIn && !mine, say))),
    mine ? h("div", { class: "row" },
      h("a", { class: "button small primary", href: entry.link }, t("tables.to_table")), leave) : null);
}

/**
 * The section: the open tables that pass the filters (shared/tablefilter.js), or why
 * there are none, and how to sit.
 * @param {{ready: boolean, tables: TableEntry[]}} lobby
 * @param {boolean} signedIn
 * @param {(message: string) => void} say
 * @param {string|null} message the last refusal, if any
 * @param {import("./tablefilter.js").TableFilter} [filter]
 */
export function openTablesPanel(lobby, signedIn, say, message, filter) {
  const all = lobby.tables;
  const list = filter ? filter.apply(all) : all;
  const filtered = Boolean(filter?.active()) && all.length > 0;
  return h("section", { class: "card open-tables", "aria-labelledby": "tables-title" },
    h("h2", { id: "tables-title" }, t("tables.title")),
    signedIn ? null : h("p", { class: "hint" }, t("tables.sign_in")),
    message ? h("p", { class: "error", role: "alert" }, message) : null,
    filter ? filter.draw() : null,
    filtered ? h("p", { class: "hint filter-count", role: "status" }, t("tables.shown", { n: list.length, total: all.length })) : null,
    list.length
      ? h("ul", { class: "open-list" }, ...list.map((e) => tableItem(e, signedIn, say)))
      : h("p", { class: "hint", id: "no-tables" },
        !lobby.ready ? t("table.connecting") : filtered ? t("tables.none_match") : t("tables.none")));
}

/**
 * The other players of one of the account's games, with their presence: "with Ann ●".
 * @param {TableEntry|undefined} entry
 */
export function opponents(entry) {
  if (!entry) return null;
  const others = entry.seats.filter((s) => !s.you && s.kind === "human" && s.taken);
  if (!others.length) return null;
  return h("span", { class: "opponents" }, t("tables.with"), " ",
    ...others.flatMap((s, i) => [i ? ", " : "", h("span", { class: "opponent" }, seatText(s), presenceDot(s.presence))]));
}
