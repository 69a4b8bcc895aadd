// A report to the server's admins, of a chat line or of a player: the reason asked in
// a small dialog, sent, and thanked for. The dialog is the browser's own (<dialog>
// opened modal): focus stays inside it, Escape closes it, and focus goes back to the
// control that opened it. Its styles are the moderation sheet's, which it loads.

import { fill, h, s, stylesheet } from "./dom.js";
import { errorText, t } from "./i18n.js";

export const MODERATION_CSS = "/static/css/moderation.css";

/**
 * Ask why, send the report, say thank you.
 * @param {object} what
 * @param {string} what.title the dialog's heading
 * @param {Node|null} what.quote what is reported, as the player saw it
 * @param {(reason: string) => Promise<unknown>} what.send
 */
export async function openReport({ title, quote, send }) {
  await stylesheet(MODERATION_CSS);
  const back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = h("dialog", { class: "report-dialog", "aria-labelledby": "report-title" });
  const close = () => dialog.close();
  const reason = h("textarea", { id: "report-reason", maxlength: 500, rows: 3 });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const go = h("button", { type: "submit", class: "primary", id: "report-send" }, t("report.send"));
  const heading = () => h("h2", { id: "report-title" }, title);
  const thanks = () => {
    const done = h("button", { type: "button", id: "report-close", onclick: close }, t("report.close"));
    fill(dialog, heading(), h("p", { class: "report-sent", role: "status" }, t("report.sent")), h("div", { class: "row end" }, done));
    done.focus();
  };
  dialog.append(h("form", {
    class: "report-form",
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      go.disabled = true;
      try {
        await send(reason.value.trim());
        thanks();
      } catch (err) {
        error.textContent = errorText(err);
        error.hidden = false;
        go.disabled = false;
      }
    },
  },
  heading(),
  quote ? h("blockquote", { class: "report-quote" }, quote) : null,
  h("label", { for: "report-reason" }, t("report.reason")),
  reason,
  error,
  h("div", { class: "row end" }, h("button", { type: "button", id: "report-cancel", onclick: close }, t("report.cancel")), go)));
  dialog.addEventListener("close", () => {
    dialog.remove();
    back?.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  reason.focus();
}

/** A small flag: the sign of a report control (its words are its label). */
export function flagIcon() {
  return s("svg", { class: "icon", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M3 1.5v13", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }),
    s("path", { d: "M3.8 2.2h8.7l-2.2 3.3 2.2 3.3H3.8z", fill: "currentColor" }));
}
