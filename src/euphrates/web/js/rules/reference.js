// A game's rules reference, built from its text (web/words/<lang>/rules-<game>.json, fetched
// when it is opened) with diagrams drawn by the table's own SVG code (./board.js,
// ./cards.js) from the positions of the game's claim table (web/rules/claims/<game>.json,
// the same in every language, which the tests play through the engine): as its own page (/rules/board, js/rules.js) or as a panel over a table
// or the lobby. Sections and rulings have stable anchors (`rule-war`, `rule-B-24`)
// that the tables' "why?" links and refusals point at.

import { fill, h, stylesheet } from "../shared/dom.js";
import { currentLang, onLang } from "../shared/i18n.js";
import { withRulings } from "../shared/rulelinks.js";
import { COLOURS } from "../shared/pieces.js";

/** @typedef {import("../shared/pieces.js").Colour} Colour */
/** @typedef {{p?: string, rule?: string, text?: string, fig?: string, caption?: string, claims?: string[]}} Block */
/** @typedef {{id: string, title: string, blocks: Block[]}} Section */
/**
 * @typedef {{title: string, intro: string, contents: string, ruling: string, close: string,
 *            other: string, sections: Section[]}} Rules
 */
/**
 * What a game's diagrams module gives: `ready` before the first figure (the board's map),
 * then a figure drawn from its entry in the claim table.
 * @typedef {{ready: () => Promise<void>, figure: (name: string, example: unknown, label: string) => Element,
 *            icon: (colour: Colour|"treasure") => Element}} Figures
 */
/**
 * A game's claim table, as the reference reads it: the figures' positions (the claims
 * are for the tests).
 * @typedef {{figures: Record<string, unknown>}} Claims
 */
/** The final scoring's figure: points by colour and the treasures. */
/** @typedef {{points: Record<Colour, number>, treasures: number}} Scoring */

/** @type {Record<string, () => Promise<Figures>>} */
const FIGURES = {
  board: () => import("./board.js"),
  cards: () => import("./cards.js"),
};

/** @type {Map<string, Promise<Rules>>} */
const TEXTS = new Map();
/** @type {Map<string, Promise<Claims>>} */
const CLAIMS = new Map();

/**
 * A JSON file next to the texts, fetched once (again after a failure).
 * @template T
 * @param {Map<string, Promise<T>>} cache
 * @param {string} name its path under web/, without ".json"
 * @returns {Promise<T>}
 */
function loadJson(cache, name) {
  let done = cache.get(name);
  if (!done) {
    done = fetch(new URL(`../../${name}.json`, import.meta.url)).then((res) => {
      if (!res.ok) throw new Error(`${name}.json: ${res.status}`);
      return res.json();
    });
    done.catch(() => cache.delete(name));
    cache.set(name, done);
  }
  return done;
}

/**
 * A game's text in a language, fetched once (again after a failure).
 * @param {string} game
 * @param {string} lang
 * @returns {Promise<Rules>}
 */
function loadRules(game, lang) {
  return loadJson(TEXTS, `words/${lang}/rules-${game}`);
}

/**
 * The reference of `game` in the page's language.
 * @param {string} game "board" or "cards"
 * @returns {Promise<{doc: Rules, body: HTMLElement}>}
 */
export async function reference(game) {
  const load = FIGURES[game];
  if (!load) throw new Error(`no rules for ${game}`);
  const lang = currentLang();
  const [doc, figs, claims] = await Promise.all([
    loadRules(game, lang), load(), loadJson(CLAIMS, `rules/claims/${game}`), stylesheet("/static/css/rules.css")]);
  await figs.ready();
  /** @param {Block} b */
  const block = (b) => {
    if (b.rule) {
      return h("div", { class: "ruling", id: `rule-${b.rule}`, tabindex: "-1" },
        h("span", { class: "ruling-code", title: doc.ruling }, b.rule), " ", ...withRulings(b.text ?? "", game));
    }
    if (b.fig) {
      const example = claims.figures[b.fig];
      if (!example) throw new Error(`no ${game} figure ${b.fig}`);
      return h("figure", { class: "rules-fig", "data-fig": b.fig, "data-claims": (b.claims ?? []).join(" ") },
        b.fig === "scoring" ? scoringFigure(figs, /** @type {Scoring} */ (example)) : figs.figure(b.fig, example, b.caption ?? ""),
        h("figcaption", {}, b.caption ?? ""));
    }
    return h("p", {}, ...withRulings(b.p ?? "", game));
  };
  const other = game === "board" ? "cards" : "board";
  const body = h("article", { class: "rules", lang, "data-game": game },
    h("h1", {}, doc.title),
    h("p", { class: "intro" }, ...withRulings(doc.intro, game)),
    h("nav", { class: "rules-toc", "aria-label": doc.contents },
      h("ol", {}, ...doc.sections.map((s) => h("li", {}, h("a", {
        href: `#rule-${s.id}`,
        onclick: (/** @type {Event} */ e) => {
          // Never the page's fragment: a table's holds its seats' tokens.
          e.preventDefault();
          landOn(body, s.id);
        },
      }, s.title))))),
    ...doc.sections.map((s) => h("section", { id: `rule-${s.id}`, class: "rules-section", tabindex: "-1" },
      h("h2", {}, s.title), ...s.blocks.map(block))),
    h("p", { class: "rules-other" }, h("a", { href: `/rules/${other}?lang=${lang}`, target: "_blank" }, doc.other)));
  return { doc, body };
}

/**
 * The final scoring of an example: points by colour, the treasures added to the weakest
 * colour one at a time (B-32), the score.
 * @param {Figures} figs
 * @param {Scoring} example
 */
function scoringFigure(figs, example) {
  const points = COLOURS.map((c) => example.points[c]);
  const after = [...points];
  for (let i = 0; i < example.treasures; i++) {
    const weakest = after.indexOf(Math.min(...after));
    after[weakest] = (after[weakest] ?? 0) + 1;
  }
  return h("div", { class: "rules-scoring", role: "img", "aria-label": `${points.join(", ")} + ${example.treasures} = ${Math.min(...after)}` },
    ...COLOURS.map((c, i) => h("span", { class: "pt" }, figs.icon(c), String(points[i]))),
    h("span", { class: "pt" }, "+ ", figs.icon("treasure"), String(example.treasures)),
    h("span", { class: "pt" }, "→ ", ...COLOURS.map((c, i) => h("span", { class: "pt" }, figs.icon(c), String(after[i])))),
    h("strong", { class: "rules-score" }, `= ${Math.min(...after)}`));
}

/**
 * Scroll to an anchor of the reference in `root` and mark it as landed on.
 * @param {Element} root
 * @param {string} anchor a section ("war") or a ruling ("B-24"); "" the top
 */
export function landOn(root, anchor) {
  for (const el of root.querySelectorAll(".landed")) el.classList.remove("landed");
  const el = anchor ? root.querySelector(`#rule-${CSS.escape(anchor)}`) : null;
  if (el instanceof HTMLElement) {
    el.classList.add("landed");
    el.scrollIntoView({ block: "start" });
    el.focus({ preventScroll: true });
  } else {
    root.scrollTop = 0;
  }
}

/** @type {HTMLDialogElement|null} */
let dialog = null;
/** @type {{game: string, anchor: string}} */
let shown = { game: "", anchor: "" };

/**
 * The reference in a panel over the page, at an anchor.
 * @param {string} game
 * @param {string} anchor
 */
export async function openPanel(game, anchor) {
  if (!dialog) {
    const d = h("dialog", { class: "rules-panel", id: "rules-panel" });
    // The table's keys (a tile's letter, Enter) are not for the table while it is open.
    d.addEventListener("keydown", (e) => e.stopPropagation());
    document.body.append(d);
    dialog = d;
    onLang(() => {
      if (d.open) void fillPanel(d, shown.game, shown.anchor);
      else d.dataset.lang = "";
    });
  }
  shown = { game, anchor };
  if (dialog.dataset.game !== game || dialog.dataset.lang !== currentLang()) await fillPanel(dialog, game, anchor);
  if (!dialog.open) dialog.showModal();
  landOn(dialog, anchor);
}

/**
 * @param {HTMLDialogElement} d
 * @param {string} game
 * @param {string} anchor
 */
async function fillPanel(d, game, anchor) {
  const { doc, body } = await reference(game);
  fill(d, h("div", { class: "rules-bar" },
    h("button", { type: "button", class: "rules-close", onclick: () => d.close() }, `✕ ${doc.close}`)), body);
  d.setAttribute("aria-label", doc.title);
  d.dataset.game = game;
  d.dataset.lang = currentLang();
  if (d.open) landOn(d, anchor);
}
