// The host's controls at either table: a bot takes over a seat, or the game is
// abandoned (docs/server.md).

import { call } from "./api.js";
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";

/**
 * The host's controls: a bot takes over a seat, or the game is abandoned. The host is
 * the one with the host's link (`token`), or an open table's creator signed in (no
 * token: the account is enough).
 * @param {import("./types.js").GameMeta} game
 * @param {string|null} token
 * @param {(seat: number) => string} name
 * @param {(message: string) => void} say
 */
export function hostPanel(game, token, name, say) {
  /** @param {string} path @param {any} body */
  const post = async (path, body) => {
    try {
      await call(`/api/games/${game.id}${path}`, { method: "POST", body, ...(token ? { tokens: [token] } : {}) });
    } catch (e) {
      say(errorText(e));
    }
  };
  return h("details", { class: "panel host" },
    h("summary", {}, t("table.host")),
    // A rated game being played is its players': only a seat's own player hands it to a
    // bot, by resigning (docs/fair-play.md; the server refuses it, `rated_seat`).
    ...game.seats.filter((s) => s.kind === "human" && !(game.rated && game.status === "active")).map((s) => h("button", {
      type: "button", class: "small", onclick: () => post(`/seats/${s.seat}/bot`, { level: "intermediate" }),
    }, `${t("table.to_bot", { n: s.seat + 1 })} (${name(s.seat)})`)),
    h("button", {
      type: "button", class: "small danger",
      onclick: () => { if (confirm(t("table.abandon_sure"))) void post("/abandon", {}); },
    }, t("table.abandon")));
}
