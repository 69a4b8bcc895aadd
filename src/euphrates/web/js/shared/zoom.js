// The zoom control of a drawing (the board, the card layout). On a narrow screen the
// whole drawing fits the width and its squares are too small to tap with certainty;
// zoomed, it is drawn at a fixed larger scale inside its frame, which scrolls, while
// the page itself stays as wide as the screen. The control shows only where the
// stylesheet finds the screen narrow.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export class Zoom {
  /**
   * @param {HTMLElement} frame the drawing's frame: it scrolls while zoomed
   * @param {number} scale the zoomed drawing's size against its own units (the board's
   *   48-unit squares at 0.75 are 36 px wide)
   * @param {number} width the drawing's width in its own units
   */
  constructor(frame, scale, width) {
    this.frame = frame;
    frame.classList.add("zoomable");
    frame.style.setProperty("--zoomed-width", `${Math.round(width * scale)}px`);
    this.button = h("button", {
      type: "button", class: "zoom-toggle small", "aria-pressed": "false",
      onclick: () => this.toggle(),
    });
    this.label();
  }

  get on() {
    return this.frame.classList.contains("zoomed");
  }

  toggle() {
    const on = !this.on;
    this.frame.classList.toggle("zoomed", on);
    this.button.setAttribute("aria-pressed", String(on));
    // Zoomed in, the middle of the drawing is shown first: the rivers' meeting, the
    // middle columns.
    if (on) this.frame.scrollLeft = (this.frame.scrollWidth - this.frame.clientWidth) / 2;
  }

  /** The control's words, in the page's language (drawn again on a change of it). */
  label() {
    this.button.textContent = t("table.zoom");
    this.button.title = t("table.zoom_hint");
  }
}
