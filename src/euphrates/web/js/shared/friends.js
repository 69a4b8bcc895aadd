// The lobby's "Friends" (docs/server.md, Friends): the invitations to a seat someone
// sent this account, each with Accept (to the table, seated by the account: no link to
// copy) and Decline; following a player by name; the players followed, online first,
// each with the games one may watch; and the invitations this account made, to
// withdraw. Everything comes from the lobby's WebSocket, which the server keeps
// current; the form is built once, so a name being typed survives every redraw.

import { call } from "./api.js";
import { fill, h, stylesheet } from "./dom.js";
import { errorText, t, useTexts } from "./i18n.js";
import { clockText } from "./opentables.js";
import { presenceDot } from "./presence.js";

await useTexts("friends");
void stylesheet("/static/css/friends.css");

/** @typedef {import("./lobbynet.js").FriendsState} FriendsState */
/** @typedef {{friends: FriendsState|null}} FriendsSource */

/** @param {string} game */
function gameTitle(game) {
  return t(`lobby.${game === "cards" ? "cards" : "board"}`);
}

export class FriendsPanel {
  /** @param {FriendsSource} source the lobby's socket */
  constructor(source) {
    this.source = source;
    this.slot = h("div", { class: "friends-slot" });
    this.signedIn = false;
    /** @type {string|null} */
    this.error = null;
    /** @type {string|null} */
    this.status = null;
    this.busy = false;
    this.drawn = "";
    this.nameInput = h("input", {
      type: "text", id: "follow-name", name: "follow", maxlength: 64, autocomplete: "off",
      spellcheck: "false", autocapitalize: "none",
    });
    this.followButton = h("button", { type: "submit", class: "primary", id: "follow" });
    this.nameLabel = h("label", { for: "follow-name", class: "label" });
    this.form = h("form", {
      class: "follow-form", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); void this.follow(); },
    }, this.nameLabel, h("span", { class: "follow-row" }, this.nameInput, this.followButton));
    this.body = h("div", { class: "friends-body" });
  }

  /**
   * Draw again: the server told something, signed in or out, the language changed.
   * @param {boolean} signedIn
   */
  update(signedIn) {
    this.signedIn = signedIn;
    const state = signedIn ? this.source.friends : null;
    const key = JSON.stringify([signedIn, state, this.error, this.status, this.busy, t("friends.title")]);
    if (key === this.drawn && this.slot.firstChild) return;
    this.drawn = key;
    this.nameLabel.textContent = t("friends.name");
    this.followButton.textContent = t("friends.follow");
    this.followButton.disabled = this.busy;
    fill(this.body, ...(state ? this.lists(state) : []));
    fill(this.slot, h("section", { class: "card friends", "aria-labelledby": "friends-title" },
      h("h2", { id: "friends-title" }, t("friends.title")),
      signedIn ? h("p", { class: "hint" }, t("friends.hint")) : h("p", { class: "hint" }, t("friends.sign_in")),
      signedIn ? this.form : null,
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      this.status ? h("p", { class: "hint", role: "status" }, this.status) : null,
      signedIn ? this.body : null));
  }

  /** @param {FriendsState} state */
  lists(state) {
    return [
      state.received.length ? h("div", { class: "invitations" },
        h("h3", {}, t("friends.invitations")),
        h("ul", { class: "invitation-list" }, ...state.received.map((i) => this.received(i)))) : null,
      state.players.length
        ? h("ul", { class: "followed", "aria-label": t("friends.followed") }, ...state.players.map((p) => this.player(p)))
        : h("p", { class: "hint", id: "no-friends" }, t("friends.none")),
      state.sent.length ? h("div", { class: "sent" },
        h("h3", {}, t("friends.sent")),
        h("ul", { class: "sent-list" }, ...state.sent.map((i) => this.sent(i)))) : null,
    ];
  }

  /** @param {FriendsState["received"][number]} i */
  received(i) {
    const what = t("friends.invites_you", { host: i.host, game: gameTitle(i.game), n: i.players, seat: i.seat + 1 });
    return h("li", { class: "invitation", "data-id": i.id },
      h("p", { class: "invitation-what" }, what),
      h("p", { class: "invitation-rules" },
        i.rated ? h("span", { class: "tag rated" }, t("ratings.rated")) : null, " ", clockText(i.clock)),
      h("div", { class: "row" },
        h("button", {
          type: "button", class: "primary small accept", disabled: this.busy,
          "aria-label": t("friends.accept_from", { host: i.host }),
          onclick: () => void this.act(`/api/invitations/${encodeURIComponent(i.id)}/accept`, "POST",
            (/** @type {any} */ doc) => location.assign(doc.link)),
        }, t("friends.accept")),
        h("button", {
          type: "button", class: "small decline", disabled: this.busy,
          "aria-label": t("friends.decline_from", { host: i.host }),
          onclick: () => void this.act(`/api/invitations/${encodeURIComponent(i.id)}/decline`, "POST"),
        }, t("friends.decline"))));
  }

  /** @param {FriendsState["players"][number]} p */
  player(p) {
    return h("li", { class: `friend${p.online ? " online" : ""}`, "data-name": p.name },
      h("div", { class: "friend-head" },
        presenceDot(p.online ? "online" : "away"),
        h("a", { class: "friend-name", href: `/u/${encodeURIComponent(p.name)}` }, p.name),
        h("button", {
          type: "button", class: "small quiet unfollow", disabled: this.busy,
          "aria-label": t("friends.unfollow_name", { name: p.name }),
          onclick: () => void this.act(`/api/follows/${encodeURIComponent(p.name)}`, "DELETE"),
        }, t("friends.unfollow"))),
      p.games.length ? h("ul", { class: "friend-games" }, ...p.games.map((g) => h("li", { "data-id": g.id },
        h("span", { class: "friend-game" }, t("lobby.vs", { game: gameTitle(g.game), players: g.players }), " ",
          h("span", { class: `status ${g.status}` }, t(`status.${g.status}`))),
        h("a", {
          class: "button small watch", href: g.link,
          "aria-label": t("friends.watch_game", { name: p.name, game: gameTitle(g.game) }),
        }, t("friends.watch"))))) : null);
  }

  /** @param {FriendsState["sent"][number]} i */
  sent(i) {
    return h("li", { class: "sent-item", "data-id": i.id },
      h("span", {}, t("friends.you_invited", { name: i.name, seat: i.seat + 1, game: gameTitle(i.game) })),
      h("a", { class: "button small", href: i.link }, t("tables.to_table")),
      h("button", {
        type: "button", class: "small quiet withdraw", disabled: this.busy,
        "aria-label": t("friends.withdraw_from", { name: i.name }),
        onclick: () => void this.act(`/api/invitations/${encodeURIComponent(i.id)}`, "DELETE"),
      }, t("friends.withdraw")));
  }

  async follow() {
    const name = this.nameInput.value.trim();
    if (!name) return;
    await this.act(`/api/follows/${encodeURIComponent(name)}`, "PUT", () => {
      this.nameInput.value = "";
      this.status = t("friends.following", { name });
    });
  }

  /**
   * A request of the panel's; the socket tells what changed, this says what went wrong.
   * @param {string} path
   * @param {string} method
   * @param {(doc: any) => void} [then]
   */
  async act(path, method, then) {
    this.error = null;
    this.status = null;
    this.busy = true;
    this.update(this.signedIn);
    try {
      const doc = await call(path, { method });
      then?.(doc);
    } catch (e) {
      this.error = errorText(e);
    }
    this.busy = false;
    this.update(this.signedIn);
  }
}
