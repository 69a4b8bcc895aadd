// A table while it waits for its players: who sits where and whether they are here,
// the free seats and the invitation links this browser made; a "Sit" for someone
// watching an open table, a "Leave" for someone seated at it, and for its host
// "Start now with bots" of a chosen level (docs/server.md, Open tables) — at a rated
// table, only of the levels with a measured rating (`/api/meta`'s `rated_levels`) — and
// "Invite a player by name" to a free seat (shared/invite.js). Built
// again only when what it shows changes, so a level being chosen is not lost.

import { call } from "./api.js";
import { fill, h } from "./dom.js";
import { currentLang, errorText, t } from "./i18n.js";
import { findGame } from "./mygames.js";
import { offerOnce, ratedLevels } from "./offer.js";
import { presenceDot, presenceOf } from "./presence.js";

const LEVELS = ["beginner", "intermediate", "strong", "expert"];

/**
 * @typedef {object} WaitingContext
 * @property {import("./types.js").GameMeta} game
 * @property {number[]} held the seats this screen holds
 * @property {boolean} host whether this screen is the host's (its link, or the creator's account)
 * @property {string|null} hostToken
 * @property {(seat: number) => string} name
 * @property {(message: string) => void} say
 */

export class Waiting {
  constructor() {
    this.key = "";
    this.level = "intermediate";
    /** @type {string[]|null} a rated table's levels, once the server has said */
    this.rated = null;
    this.asking = false;
    /** @type {import("./invite.js").InviteBox|null} loaded with the first host's banner */
    this.invite = null;
    /** @type {[string, number[], string|null]} what the invite box is to show */
    this.inviting = ["", [], null];
    this.inviteSlot = h("div", { class: "invite-slot" });
    this.loadingInvite = false;
  }

  /**
   * The levels the host may start with: every level, or at a rated table those the
   * server measured (null until it has said; then drawn again).
   * @param {HTMLElement} slot
   * @param {WaitingContext} c
   */
  levels(slot, c) {
    if (!c.game.rated) return LEVELS;
    if (this.rated === null && !this.asking) {
      this.asking = true;
      offerOnce().then((offer) => {
        this.rated = ratedLevels(offer, c.game.game, c.game.players);
        this.key = "";
        if (slot.isConnected) this.paint(slot, c);
      }, () => { this.asking = false; });
    }
    return this.rated;
  }

  /**
   * Draw the banner of a waiting game into `slot`, if what it shows changed.
   * @param {HTMLElement} slot
   * @param {WaitingContext} c
   */
  paint(slot, c) {
    const { game } = c;
    const levels = this.levels(slot, c);
    const key = JSON.stringify([currentLang(), game.seats, c.held, c.host, game.open, levels]);
    if (key === this.key && slot.firstChild) return;
    this.key = key;
    if (levels && !levels.includes(this.level)) this.level = levels.includes("intermediate") ? "intermediate" : levels[0] ?? this.level;
    fill(slot, this.panel(c, levels ?? []));
  }

  /**
   * The host's invitations by name, kept across redraws.
   * @param {string} gameId
   * @param {number[]} free
   * @param {string|null} hostToken
   */
  inviteBox(gameId, free, hostToken) {
    this.inviting = [gameId, free, hostToken];
    if (this.invite) {
      this.invite.update(gameId, free, hostToken);
    } else if (!this.loadingInvite) {
      // Only a waiting table's host invites: the box and its styles load then, not
      // with every table's first load.
      this.loadingInvite = true;
      void import("./invite.js").then((m) => {
        this.invite = new m.InviteBox();
        this.invite.update(...this.inviting);
        this.inviteSlot.replaceChildren(this.invite.el);
      });
    }
    return this.inviteSlot;
  }

  /**
   * @param {WaitingContext} c
   * @param {string[]} levels the levels the host may start with
   */
  panel(c, levels) {
    const { game } = c;
    const free = game.seats.filter((s) => s.kind === "human" && !s.taken);
    // The invitation links this browser made, for the seats still free.
    const invites = (findGame(game.id)?.invites ?? []).filter((inv) => free.some((s) => s.seat === inv.seat));
    const post = (/** @type {string} */ path, /** @type {any} */ body) => call(`/api/games/${game.id}${path}`, {
      method: "POST", body, ...(c.hostToken && path === "/start" ? { tokens: [c.hostToken] } : {}),
    });
    const actions = [];
    if (game.open && !c.held.length) {
      actions.push(h("button", {
        type: "button", class: "primary", id: "sit",
        onclick: () => post("/sit", {}).then(() => location.reload(), (e) => c.say(errorText(e))),
      }, t("waiting.sit")));
    }
    if (game.open && c.held.length && typeof game.creator === "number" && !c.held.includes(game.creator)) {
      actions.push(h("button", {
        type: "button", class: "small", id: "leave",
        onclick: () => post("/leave", {}).then(() => location.assign("/"), (e) => c.say(errorText(e))),
      }, t("waiting.leave")));
    }
    if (c.host && free.length && levels.length) {
      const select = h("select", {
        id: "start-level", "aria-label": t("waiting.level"),
        onchange: (/** @type {Event} */ e) => { this.level = /** @type {HTMLSelectElement} */ (e.target).value; },
      }, ...levels.map((l) => h("option", { value: l, selected: l === this.level }, t(`level.${l}`))));
      actions.push(h("span", { class: "start-now" },
        h("button", {
          type: "button", class: "primary", id: "start-now",
          onclick: (/** @type {Event} */ e) => {
            /** @type {HTMLButtonElement} */ (e.currentTarget).disabled = true;
            post("/start", { level: this.level }).catch((err) => {
              /** @type {HTMLButtonElement} */ (e.currentTarget).disabled = false;
              c.say(errorText(err));
            });
          },
        }, t("waiting.start")),
        select));
    }
    return h("section", { class: "waiting-banner", "aria-labelledby": "waiting-title" },
      h("h2", { id: "waiting-title" }, game.open ? t("waiting.open") : t("waiting.title")),
      h("ul", { class: "waiting-seats" }, ...game.seats.map((s) => h("li", { class: s.taken ? "" : "free", "data-seat": s.seat },
        h("span", { class: "seat-no", "aria-hidden": "true" }, String(s.seat + 1)),
        s.kind === "human" && !s.taken ? t("tables.free") : c.name(s.seat),
        game.creator === s.seat ? h("span", { class: "tag" }, t("tables.host")) : null,
        c.held.includes(s.seat) ? h("span", { class: "tag" }, t("table.you")) : null,
        s.kind === "human" && s.taken ? presenceDot(presenceOf(s)) : null))),
      free.length ? h("p", {}, t("waiting.free", { n: free.length })) : null,
      c.host && free.length ? h("p", { class: "hint" }, t("waiting.host_hint")) : null,
      actions.length ? h("div", { class: "row" }, ...actions) : null,
      c.host && free.length ? this.inviteBox(game.id, free.map((s) => s.seat), c.hostToken) : null,
      invites.length ? h("ul", { class: "links" }, ...invites.map((inv) =>
        h("li", {}, h("span", {}, t("lobby.seat", { n: inv.seat + 1 })),
          h("input", { type: "text", readonly: true, value: inv.link, class: "link", "aria-label": t("lobby.seat", { n: inv.seat + 1 }) })))) : null);
  }
}
