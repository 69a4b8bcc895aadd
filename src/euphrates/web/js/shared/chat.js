// The table's chat: plain text only (textContent, never markup).

import { h } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { ServerError } from "./net.js";

/** @typedef {import("./types.js").ChatLine} ChatLine */

/**
 * The chat's lines and its input. The input is built once and kept, so that what a
 * player is typing survives the moves and lines that arrive meanwhile; `show` only
 * redraws the lines.
 */
export class ChatPanel {
  /**
   * @param {(text: string) => Promise<any>} say
   * @param {(message: string) => void} complain
   */
  constructor(say, complain) {
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite" });
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
    this.element = h("div", { class: "chat" }, this.list, form);
  }

  /** @param {ChatLine[]} lines */
  show(lines) {
    this.list.replaceChildren(...lines.map((c) => h("li", {}, h("span", { class: "author" }, c.author), " ", h("span", { class: "text" }, c.text))));
    queueMicrotask(() => { this.list.scrollTop = this.list.scrollHeight; });
  }
}
