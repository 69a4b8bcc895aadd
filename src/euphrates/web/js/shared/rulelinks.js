// Links into the rules reference (/rules/board, /rules/cards): the "Rules" button, a
// panel's "why?", a ruling code in a refusal. Each is a real link that opens the page
// in a new tab; a page that registers an opener shows the reference in a panel over
// itself instead. The reference's text and drawing load only then.

import { h } from "./dom.js";
import { currentLang } from "./i18n.js";

/** @type {((game: string, anchor: string) => void)|null} */
let opener = null;

/**
 * How this page shows the reference (its own panel, loaded on demand).
 * @param {(game: string, anchor: string) => void} open
 */
export function setRulesOpener(open) {
  opener = open;
}

/**
 * A link to a place in a game's reference: a section ("war") or a ruling ("B-24").
 * @param {string} game "board" or "cards"
 * @param {string} anchor
 * @param {string} text
 * @param {string} cls
 */
export function ruleLink(game, anchor, text, cls) {
  return h("a", {
    href: `/rules/${game}?lang=${currentLang()}${anchor ? `#rule-${anchor}` : ""}`, class: cls, target: "_blank", "data-rule": anchor,
    onclick: (/** @type {Event} */ e) => {
      const m = /** @type {MouseEvent} */ (e);
      if (!opener || m.ctrlKey || m.metaKey || m.shiftKey) return;
      e.preventDefault();
      opener(game, anchor);
    },
  }, text);
}

/**
 * A text with each ruling it cites (B-12, C-9, G-1) as a link to its place; a G-n
 * ruling is the same in both games and links into `game`'s reference.
 * @param {string} text
 * @param {string} game
 * @returns {(string|Node)[]}
 */
export function withRulings(text, game) {
  /** @type {(string|Node)[]} */
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\b([BCG])-(\d{1,2})\b/g)) {
    const at = m.index ?? 0;
    out.push(text.slice(last, at));
    out.push(ruleLink(m[1] === "B" ? "board" : m[1] === "C" ? "cards" : game, m[0], m[0], "ruling-link"));
    last = at + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}
