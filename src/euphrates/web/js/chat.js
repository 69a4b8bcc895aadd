// The table's chat: plain text only (textContent, never markup).

import { h } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { ServerError } from "./net.js";

/** @typedef {import("./types.js").ChatLine} ChatLine */

/**
 * @param {ChatLine[]} lines
 * @param {(text: string) => Promise<any>} say
 * @param {(message: string) => void} complain
 */
export function chatPanel(lines, say, complain) {
  const list = h("ol", { class: "chat-lines", "aria-live": "polite" },
    ...lines.map((c) => h("li", {}, h("span", { class: "author" }, c.author), " ", h("span", { class: "text" }, c.text))));
  const input = h("input", { type: "text", maxlength: 500, "aria-label": t("table.chat_hint"), placeholder: t("table.chat_hint"), id: "chat-input" });
  const form = h("form", {
    class: "row",
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      try {
        await say(text);
        input.value = "";
      } catch (err) {
        if (err instanceof ServerError) complain(refusal(err.code, err.message, err.ruling));
      }
    },
  }, input, h("button", { type: "submit" }, t("table.send")));
  queueMicrotask(() => { list.scrollTop = list.scrollHeight; });
  return h("div", { class: "chat" }, list, form);
}
