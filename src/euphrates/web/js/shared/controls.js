// What a table offers besides the game: a rated game's mark and its resignation (with a
// confirmation) for the seats this page holds, and the host's controls (host.js).
// Built again only when what they offer changes, so that an open box stays open.

import { call } from "./api.js";
import { fill, h } from "./dom.js";
import { currentLang, errorText, t } from "./i18n.js";
import { hostPanel } from "./host.js";

/**
 * The part of a table these controls use.
 * @typedef {object} ControlsHost
 * @property {{host: boolean, game: import("./types.js").GameMeta|null}} conn
 * @property {number[]} held
 * @property {string|null} hostToken
 * @property {HTMLElement} hostBox
 * @property {string} hostKey
 * @property {(seat: number) => string} name
 * @property {(text: string) => void} say
 */

/**
 * Fill the table's controls box for `game`.
 * @param {ControlsHost} table
 * @param {import("./types.js").GameMeta} game
 */
export function paintControls(table, game) {
  const hosting = table.conn.host && (game.status === "waiting" || game.status === "active");
  const mine = game.rated && game.status === "active" ? table.held.filter((s) => game.seats[s]?.kind === "human") : [];
  const names = game.seats.map((s) => `${s.kind}${table.name(s.seat)}`).join();
  const key = `${currentLang()}:${game.status}:${hosting}:${game.rated}:${mine.join()}:${hosting ? names : ""}`;
  if (key === table.hostKey) return;
  table.hostKey = key;
  fill(table.hostBox,
    game.rated ? ratedPanel(game, mine, table) : null,
    hosting ? hostPanel(game, table.hostToken, (s) => table.name(s), (text) => table.say(text)) : null);
}

/**
 * A rated game's mark, and a button per seat held to resign it (asked to confirm).
 * @param {import("./types.js").GameMeta} game
 * @param {number[]} seats
 * @param {ControlsHost} table
 */
function ratedPanel(game, seats, table) {
  /** @param {number} seat */
  const resign = async (seat) => {
    if (!confirm(t("ratings.resign_sure"))) return;
    try {
      await call(`/api/games/${game.id}/seats/${seat}/resign`, { method: "POST", body: {} });
    } catch (e) {
      table.say(errorText(e));
    }
  };
  return h("section", { class: "panel rated-panel", "aria-label": t("ratings.rated") },
    h("p", {}, h("span", { class: "tag rated" }, t("ratings.rated")), " ", h("span", { class: "hint" }, t("ratings.rated_table"))),
    ...seats.map((s) => h("button", {
      type: "button", class: "small danger resign", "data-seat": s, onclick: () => void resign(s),
    }, seats.length > 1 ? `${t("ratings.resign")} (${table.name(s)})` : t("ratings.resign"))));
}
