// What every page of a game says alike: a seat's name, and the page shown when there
// is nothing to show but the reason.

import { fill, h } from "./dom.js";
import { langSwitch, t } from "./i18n.js";
import { dynastyOf } from "./pieces.js";

/**
 * A seat's name as shown: a bot by its dynasty (two bots of one level are common), a
 * person by the name given, else "Player n". A bot that plays on for a person who left
 * (resigned, forfeited) keeps that person's name: the seat, its result and its rating
 * are still theirs.
 * @param {{kind?: string, level?: string|null, name?: string|null}|undefined} meta the game's seat
 * @param {number} seat
 * @param {{bot: string, dynasty: string}} words how the game names bots and dynasties
 * @param {string|null} [recorded] the name in the game's record, where the seat has none
 */
export function seatName(meta, seat, words, recorded = null) {
  if (meta?.kind === "bot" && !meta.name) {
    return t(words.bot, { dynasty: t(`${words.dynasty}${dynastyOf(seat)}`), level: t(`level.${meta.level ?? "beginner"}`) });
  }
  const name = meta?.name ?? recorded;
  if (!name || /^Player \d$/.test(name)) return t("player.default", { n: seat + 1 });
  return name;
}

/**
 * The page when nothing can be shown: the reason, and the way back to the lobby.
 * @param {HTMLElement} app
 * @param {string} message
 */
export function fatalPage(app, message) {
  fill(app, h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch()),
    h("main", { class: "message" }, h("p", { class: "error", role: "alert" }, message)));
}
