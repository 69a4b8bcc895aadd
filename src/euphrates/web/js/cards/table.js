// The card game's table module slot. Its table is a later piece of work; until it
// arrives the page says so plainly and keeps what every table shows: the seats,
// the game's status and the chat.

import { chatPanel } from "../chat.js";
import { fill, h } from "../dom.js";
import { langSwitch, t } from "../i18n.js";

/** @typedef {import("../table.js").TableHost} TableHost */
/** @typedef {import("../table.js").TableModule} TableModule */

/**
 * @param {TableHost} host
 * @returns {Promise<TableModule>}
 */
export async function createTable(host) {
  const { root, conn } = host;
  let notice = "";
  const render = () => {
    const game = conn.game;
    fill(root,
      h("header", { class: "top table-top" },
        h("a", { href: "/", class: "home" }, t("lobby.cards")),
        h("span", { class: "status" }, game ? t(`status.${game.status}`) : t("table.connecting")),
        langSwitch()),
      h("main", { class: "message cards-coming" },
        h("section", { class: "card" },
          h("h2", {}, t("lobby.cards")),
          h("p", { class: "coming" }, t("table.cards_coming")),
          game ? h("ol", { class: "seat-list" }, ...game.seats.map((s) => h("li", {},
            s.kind === "bot" ? t("table.bot", { level: t(`level.${s.level ?? "beginner"}`) }) : s.name && !/^Player \d$/.test(s.name) ? s.name : t("player.default", { n: s.seat + 1 }),
            " · ", s.kind === "human" ? (s.connected ? t("table.online") : t("table.away")) : ""))) : null,
          notice ? h("p", { class: "notice" }, notice) : null,
          h("h3", {}, t("table.chat")),
          chatPanel(conn.chat, (text) => conn.say(text), (m) => { notice = m; render(); }))));
  };
  return { render, step: () => {}, chat: render, link: render };
}
