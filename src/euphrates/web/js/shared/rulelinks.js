// Links into the rules reference (/rules/board#rule-war): real links to its page; a
// page that sets an opener shows it in a panel instead, loaded only then.

import { h } from "./dom.js";
import { currentLang } from "./i18n.js";

/** @type {((game: string, anchor: string) => void)|null} */
let opener = null;

/** @param {(game: string, anchor: string) => void} open */
export function setRulesOpener(open) {
  opener = open;
}

/**
 * A link to a section ("war") or a ruling ("B-24") of a game's reference.
 * @param {string} game
 * @param {string} anchor
 * @param {string} text
 * @param {string} cls
 */
export function ruleLink(game, anchor, text, cls) {
  return h("a", {
    href: `/rules/${game}?lang=${currentLang()}#rule-${anchor}`, class: cls, target: "_blank", "data-rule": anchor,
    onclick: (/** @type {Event} */ e) => {
      if (opener && !(/** @type {MouseEvent} */ (e).ctrlKey)) {
        e.preventDefault();
        opener(game, anchor);
      }
    },
  }, text);
}

/**
 * A text with each ruling it cites (B-12, C-9; G-1 of `game`) as a link.
 * @param {string} text
 * @param {string} game
 */
export function withRulings(text, game) {
  return text.split(/\b([BCG]-\d+)\b/).map((part, i) => (i % 2
    ? ruleLink(part[0] === "B" ? "board" : part[0] === "C" ? "cards" : game, part, part, "ruling-link")
    : part));
}
