// The host's "Invite a player by name", in the banner of a table waiting for its
// players (shared/waiting.js; docs/server.md, Friends): a free seat and a member's name;
// the guest sees the invitation live in their lobby (and by mail or webhook if they
// asked for messages) and accepting seats their account — no link to copy. Below it,
// the table's invitations still standing, each to withdraw. The form's elements are
// built once, so a name being typed survives the banner's redraws.

import { loadAccount } from "./account.js";
import { call } from "./api.js";
import { fill, h, stylesheet } from "./dom.js";
import { errorText, t, useTexts } from "./i18n.js";

await useTexts("friends");
void stylesheet("/static/css/friends.css");

/**
 * @typedef {{id: string, name: string, seat: number, game: string, players: number, link: string, created: string}} Sent
 */

export class InviteBox {
  constructor() {
    this.el = h("div", { class: "invite-box" });
    this.nameInput = h("input", {
      type: "text", id: "invite-name", name: "invite", maxlength: 64, autocomplete: "off",
      spellcheck: "false", autocapitalize: "none",
    });
    this.seatSelect = h("select", { id: "invite-seat", name: "seat" });
    this.button = h("button", { type: "submit", class: "primary", id: "invite" });
    /** @type {Sent[]} */
    this.list = [];
    /** @type {string|null} */
    this.error = null;
    /** @type {string|null} */
    this.status = null;
    this.gameId = "";
    /** @type {string|null} */
    this.hostToken = null;
    /** @type {number[]} */
    this.free = [];
    this.asked = "";
    /** Whether this browser is signed in (null until asked): an invitation is from someone. */
    this.signedIn = /** @type {boolean|null} */ (null);
    loadAccount().then((me) => { this.signedIn = Boolean(me); this.draw(); }, () => { this.signedIn = false; this.draw(); });
  }

  /**
   * The table as it is now: its free seats (asked again for its invitations when they
   * changed) and the host's link, if that is what makes this screen the host.
   * @param {string} gameId
   * @param {number[]} free
   * @param {string|null} hostToken
   */
  update(gameId, free, hostToken) {
    this.gameId = gameId;
    this.free = free;
    this.hostToken = hostToken;
    const asked = JSON.stringify([gameId, free]);
    if (asked !== this.asked) {
      this.asked = asked;
      void this.load();
    }
    this.draw();
  }

  /** The table's invitations still standing, as the server has them. */
  async load() {
    try {
      const doc = await call(`/api/games/${encodeURIComponent(this.gameId)}/invitations`, this.opts());
      this.list = doc.invitations ?? [];
    } catch {
      this.list = [];
    }
    this.draw();
  }

  opts() {
    return this.hostToken ? { tokens: [this.hostToken] } : {};
  }

  draw() {
    const chosen = Number(this.seatSelect.value);
    this.seatSelect.replaceChildren(...this.free.map((s) => h("option", { value: s, selected: s === chosen },
      t("lobby.seat", { n: s + 1 }))));
    this.button.textContent = t("byname.button");
    if (this.signedIn === false) {
      fill(this.el, h("p", { class: "hint" }, t("byname.sign_in")));
      return;
    }
    fill(this.el,
      h("h3", { id: "invite-title" }, t("byname.title")),
      h("p", { class: "hint" }, t("byname.hint")),
      h("form", {
        class: "invite-form", "aria-labelledby": "invite-title",
        onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); void this.invite(); },
      },
      h("span", { class: "invite-field invite-who" },
        h("label", { for: "invite-name", class: "label" }, t("friends.name")), this.nameInput),
      h("span", { class: "invite-field" },
        h("label", { for: "invite-seat", class: "label" }, t("byname.seat")), this.seatSelect, this.button)),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      this.status ? h("p", { class: "hint", role: "status" }, this.status) : null,
      this.list.length ? h("ul", { class: "table-invitations" }, ...this.list.map((i) => h("li", { "data-id": i.id },
        h("span", {}, t("byname.pending", { name: i.name, seat: i.seat + 1 })),
        h("button", {
          type: "button", class: "small quiet withdraw",
          "aria-label": t("friends.withdraw_from", { name: i.name }),
          onclick: () => void this.withdraw(i.id),
        }, t("friends.withdraw"))))) : null);
  }

  async invite() {
    const name = this.nameInput.value.trim();
    const seat = Number(this.seatSelect.value);
    if (!name || !this.free.includes(seat)) return;
    this.error = null;
    this.status = null;
    this.button.disabled = true;
    try {
      const made = await call(`/api/games/${encodeURIComponent(this.gameId)}/invitations`, {
        method: "POST", body: { name, seat }, ...this.opts(),
      });
      this.nameInput.value = "";
      this.status = t("byname.done", { name: made.name, seat: made.seat + 1 });
    } catch (e) {
      this.error = errorText(e);
    }
    this.button.disabled = false;
    await this.load();
  }

  /** @param {string} id */
  async withdraw(id) {
    this.error = null;
    this.status = null;
    try {
      await call(`/api/invitations/${encodeURIComponent(id)}`, { method: "DELETE" });
    } catch (e) {
      this.error = errorText(e);
    }
    await this.load();
  }
}
