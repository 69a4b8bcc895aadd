// The lobby's ways to a table by link: a link to copy (each invitation, the spectators'
// and the host's, once a game is created), and "Join or watch", which opens a link or a
// game's id pasted in.

import { copyText, h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * A link to copy, with its label.
 * @param {string} label
 * @param {string} link
 */
export function linkRow(label, link) {
  const button = h("button", { type: "button", class: "small" }, t("lobby.copy"));
  button.addEventListener("click", async () => {
    if (await copyText(link)) button.textContent = t("lobby.copied");
  });
  return h("li", {},
    h("span", { class: "link-label" }, label),
    h("input", { type: "text", readonly: true, value: link, class: "link", "aria-label": label,
      onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() }),
    button);
}

/**
 * "Join or watch": a link pasted in takes its seat (or watches the game).
 * @param {(message: string) => void} fail what the lobby shows of a text that is no link
 */
export function joinPanel(fail) {
  const input = h("input", { type: "text", id: "join-link", "aria-label": t("lobby.join"), placeholder: `${location.origin}/g/…` });
  const go = (/** @type {boolean} */ watch) => {
    const parsed = parseLink(input.value.trim());
    if (!parsed) {
      fail(t("lobby.bad_link"));
      return;
    }
    location.assign(`/g/${parsed.id}${watch ? "" : parsed.hash}`);
  };
  return h("section", { class: "card join", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, t("lobby.join")),
    h("p", { class: "hint" }, t("lobby.join_hint")),
    h("form", { class: "row", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); go(false); } },
      input,
      h("button", { type: "submit" }, t("lobby.join_btn")),
      h("button", { type: "button", onclick: () => go(true) }, t("lobby.watch_btn"))));
}

/**
 * A game link or id → its id and fragment.
 * @param {string} text
 * @returns {{id: string, hash: string} | null}
 */
export function parseLink(text) {
  if (/^[A-Za-z0-9_-]{4,32}$/.test(text)) return { id: text, hash: "" };
  try {
    const url = new URL(text, location.origin);
    const m = /\/(?:g|replay)\/([A-Za-z0-9_-]{1,32})$/.exec(url.pathname);
    return m && m[1] ? { id: m[1], hash: url.hash } : null;
  } catch {
    return null;
  }
}
