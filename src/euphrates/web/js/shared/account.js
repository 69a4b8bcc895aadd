// The account of this browser, if any: signing up, in and out, the account area of
// the lobby, and the games the server keeps for the account. The session itself is
// an HttpOnly cookie this code never sees; it holds only the CSRF token the server
// gives to its own pages (api.js sends it).

import { call, setCsrf } from "./api.js";
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { myGames } from "./mygames.js";

/** @typedef {{name: string, created: string}} Me */

/**
 * A game of the account, as the server lists it.
 * @typedef {object} AccountGame
 * @property {string} id
 * @property {string} game
 * @property {number} players
 * @property {string} status
 * @property {number[]} seats
 * @property {string} created
 * @property {string} link
 * @property {string|null} replay
 */

/** @type {Me|null} */
let me = null;
/** Counts the signings in and out made here: an answer to "who is signed in" asked
 * before the last of them is out of date and changes nothing. */
let signings = 0;

/** Who is signed in, asked of the server. A page asks as it opens; a player who signs
 * in before the answer comes (a slow server) stays signed in when it does. */
export async function loadAccount() {
  const asked = signings;
  const doc = await call("/api/account");
  if (asked !== signings) return me;
  me = doc.user ?? null;
  setCsrf(doc.csrf ?? null);
  return me;
}

export function account() {
  return me;
}

/**
 * Sign up or log in; then the seats this browser holds in games still going on
 * become the account's (their links alone no longer act for them).
 * @param {"signup"|"login"} kind
 * @param {string} name
 * @param {string} password
 */
export async function signIn(kind, name, password) {
  const doc = await call(`/api/account/${kind}`, { method: "POST", body: { name, password } });
  signings += 1;
  me = doc.user;
  setCsrf(doc.csrf);
  for (const g of myGames()) {
    if (!g.seats.length || g.status === "over" || g.status === "abandoned" || g.status === "expired" || g.status === "aborted") continue;
    try {
      await call(`/api/games/${encodeURIComponent(g.id)}/claim`, { method: "POST", body: {}, tokens: g.seats });
    } catch {
      /* a seat another account holds, or a game gone: it stays as it was */
    }
  }
  return me;
}

/** @param {boolean} everywhere end every session of the account, not only this one */
export async function logOut(everywhere) {
  await call(everywhere ? "/api/account/logout-all" : "/api/account/logout", { method: "POST", body: {} });
  signings += 1;
  me = null;
  setCsrf(null);
}

/** @returns {Promise<AccountGame[]>} */
export async function accountGames() {
  if (!me) return [];
  return (await call("/api/account/games")).games;
}

/** @type {{name: HTMLInputElement, password: HTMLInputElement}|null} */
let typed = null;

/** The form's two fields, made once and kept across the lobby's redraws: the lobby
 * draws itself again when the account and its games arrive, and a name or password
 * typed in the meantime must not vanish with the old fields. */
function typedFields() {
  if (!typed) {
    typed = {
      name: /** @type {HTMLInputElement} */ (h("input", { type: "text", id: "account-name", maxlength: 24, autocomplete: "username" })),
      password: /** @type {HTMLInputElement} */ (h("input", { type: "password", id: "account-password", maxlength: 256, autocomplete: "current-password" })),
    };
  }
  return typed;
}

/**
 * The account area: a form to sign up or log in, or who is signed in with the way
 * to the profile and out.
 * @param {() => void} changed called after signing in or out
 */
export function accountPanel(changed) {
  if (me) {
    const name = me.name;
    const out = (/** @type {boolean} */ everywhere) => logOut(everywhere).then(changed, (e) => alert(errorText(e)));
    return h("section", { class: "card account", "aria-labelledby": "account-title" },
      h("h2", { id: "account-title" }, t("account.title")),
      h("p", { class: "signed-in" }, t("account.signed_in", { name })),
      h("div", { class: "row" },
        h("a", { class: "button small", id: "to-profile", href: `/u/${encodeURIComponent(name)}` }, t("account.profile")),
        h("a", { class: "button small", id: "to-settings", href: "/account/notifications" }, t("account.settings")),
        h("button", { type: "button", class: "small", id: "log-out", onclick: () => out(false) }, t("account.log_out")),
        h("button", { type: "button", class: "small quiet", id: "log-out-all", onclick: () => out(true) }, t("account.log_out_all"))));
  }
  const { name, password } = typedFields();
  name.setAttribute("aria-label", t("account.name"));
  password.setAttribute("aria-label", t("account.password"));
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const go = async (/** @type {"signup"|"login"} */ kind) => {
    try {
      await signIn(kind, name.value, password.value);
      typed = null; // signed in: a later form starts empty
      changed();
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
    }
  };
  return h("section", { class: "card account", "aria-labelledby": "account-title" },
    h("h2", { id: "account-title" }, t("account.title")),
    h("p", { class: "hint" }, t("account.hint")),
    h("form", { class: "account-form", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); void go("login"); } },
      h("label", {}, t("account.name"), name),
      h("label", {}, t("account.password"), password),
      error,
      h("div", { class: "row" },
        h("button", { type: "submit", id: "account-login" }, t("account.log_in")),
        h("button", { type: "button", id: "account-signup", onclick: () => void go("signup") }, t("account.sign_up")))));
}
