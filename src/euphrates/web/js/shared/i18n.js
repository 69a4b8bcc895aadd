// English and German. The language comes from `?lang=`, else the browser unless the
// player chose one (remembered in localStorage); every page re-renders when it changes.
//
// Two kinds of texts: the page's own (strings/en.js, strings/de.js, and a game's,
// merged in by `addTexts`), and the book of words: what the game says about events and
// decisions, shared with the terminal (`/static/words/<lang>/<part>.json`, read by
// euphrates.words in Python too). A game's words module loads its part of the book
// (`loadWords`), in the page's language only; a change of language loads it in the other.

import { h } from "./dom.js";
import { ServerError } from "./net.js";
import { EN } from "./strings/en.js";

/** @typedef {"en"|"de"} Lang */

// The pages' German texts are fetched only for a page that speaks German (at its start,
// or when German is chosen): English, the fallback of every text, is always there. A
// game's own texts (`addTexts`) go in at once and win over the shared ones, as before.
/** @type {Record<string, string>} */
const DE = {};
/** @type {Record<string, string>} */
const DE_RULINGS = {};
/** @type {[string, string][]} */
const DE_UNDO_REASONS = [];
/** @type {Promise<void>|null} */
let german = null;

function loadGerman() {
  if (!german) {
    german = import("./strings/de.js").then((m) => {
      for (const [k, v] of Object.entries(m.DE)) if (!(k in DE)) DE[k] = v;
      for (const [k, v] of Object.entries(m.DE_RULINGS)) if (!(k in DE_RULINGS)) DE_RULINGS[k] = v;
      DE_UNDO_REASONS.push(...m.DE_UNDO_REASONS);
    });
    german.catch(() => { german = null; });
  }
  return german;
}

/** @type {Record<Lang, Record<string, string>>} */
const TEXTS = { en: EN, de: DE };
/** Each language's name in itself, for the switch (before its texts are loaded). */
const NAMES = { en: "English", de: "Deutsch" };
const KEY = "euphrates.lang";

/** @returns {Lang} */
function initial() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked === "en" || asked === "de") return asked;
  const stored = safeGet(KEY);
  if (stored === "en" || stored === "de") return stored;
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = l.toLowerCase().slice(0, 2);
    if (base === "de") return "de";
    if (base === "en") return "en";
  }
  return "en";
}

/** @param {string} key */
function safeGet(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** @type {Lang} */
let lang = initial();
if (lang === "de") {
  try {
    await loadGerman();
  } catch {
    lang = "en"; // the German texts did not arrive: the page speaks English
  }
}
/** @type {(() => void)[]} */
const listeners = [];

/** The book's parts the page uses, and what of the book is loaded, by language. */
/** @type {Set<string>} */
const parts = new Set();
/** @type {Record<Lang, Record<string, string>>} */
const BOOK = { en: {}, de: {} };
/** @type {Map<string, Promise<void>>} */
const loading = new Map();
let switches = 0;

/**
 * One part of the book in one language, fetched once (again only after a failure).
 * @param {Lang} l
 * @param {string} part
 */
function loadPart(l, part) {
  const name = `${l}/${part}`;
  let done = loading.get(name);
  if (!done) {
    done = fetch(new URL(`../../words/${name}.json`, import.meta.url)).then(async (res) => {
      if (!res.ok) throw new Error(`words/${name}.json: ${res.status}`);
      Object.assign(BOOK[l], await res.json());
    });
    done.catch(() => loading.delete(name));
    loading.set(name, done);
  }
  return done;
}

/**
 * The book's words of a game (and those both games share), in the page's language:
 * awaited by the game's words module before anything of the game is drawn.
 * @param {string} game "board" or "cards"
 */
export async function loadWords(game) {
  parts.add("common");
  parts.add(game);
  await Promise.all([...parts].map((part) => loadPart(lang, part)));
}

export function currentLang() {
  return lang;
}

/**
 * Another language, once the book's parts in use are there in it (a later choice wins
 * over an earlier one still loading; a failed load leaves the language as it was).
 * @param {Lang} l
 */
async function setLang(l) {
  const asked = ++switches;
  await Promise.all([...[...parts].map((part) => loadPart(l, part)), l === "de" ? loadGerman() : null]);
  if (asked !== switches) return;
  lang = l;
  try {
    localStorage.setItem(KEY, l);
  } catch {
    /* private mode: the choice lasts for this page */
  }
  document.documentElement.lang = l;
  for (const f of listeners) f();
}

/** @param {() => void} f */
export function onLang(f) {
  listeners.push(f);
}

/**
 * A game's own texts (the card game's), merged in by its table module.
 * @param {Record<string, string>} en
 * @param {Record<string, string>} de
 * @param {Record<string, string>} deRulings German summaries of its rulings
 * @param {[string, string][]} deUndo German for its undo refusals, tried first
 */
export function addTexts(en, de, deRulings, deUndo) {
  Object.assign(EN, en);
  Object.assign(DE, de);
  Object.assign(DE_RULINGS, deRulings);
  DE_UNDO_REASONS.unshift(...deUndo.filter((r) => !DE_UNDO_REASONS.includes(r)));
}

/**
 * The text for `key`: each `{n|one|other}` as the form the count `n` asks for ("{n}
 * {n|tile|tiles}": "1 tile", "2 tiles"; in English and German alike one is singular,
 * every other count plural), then the `{name}` parameters filled in (after, so that
 * nothing a parameter holds, a player's name, is read as a form).
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  return format(TEXTS[lang][key] ?? BOOK[lang][key] ?? EN[key] ?? BOOK.en[key] ?? key, params);
}

/**
 * A text with its forms chosen and its parameters filled in (the book's syntax, as
 * `format` in euphrates/words/book.py; tests/web/test_book.py compares the two).
 * @param {string} text
 * @param {Record<string, string | number>} params
 */
export function format(text, params) {
  return text
    .replace(/\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g, (all, name, one, other) =>
      name in params ? (Number(params[name]) === 1 ? one : other) : all)
    .replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/**
 * The text for `key` as pieces, some of them nodes: its forms chosen and its
 * parameters filled in from `params` as `t` does, but each `{name}` of `nodes` becomes
 * that node (a copy of it where the text names it again): a countdown, a figure marked.
 * @param {string} key
 * @param {Record<string, string | number>} params
 * @param {Record<string, Node>} nodes
 * @returns {(string | Node)[]}
 */
export function rich(key, params, nodes) {
  const text = TEXTS[lang][key] ?? BOOK[lang][key] ?? EN[key] ?? BOOK.en[key] ?? key;
  const used = new Set();
  return format(text.replace(/\{(\w+)\}/g, (all, name) => (name in nodes ? `\u0000${name}\u0000` : all)), params)
    .split("\u0000")
    .map((piece, i) => {
      if (i % 2 === 0) return piece;
      const node = /** @type {Node} */ (nodes[piece]);
      const again = used.has(piece);
      used.add(piece);
      return again ? node.cloneNode(true) : node;
    })
    .filter((piece) => piece !== "");
}

/**
 * Whether the page is worked by touch: a coarse main pointer, or touch with no fine
 * pointer at all. Such a screen is told to tap, never to click or use arrow keys.
 */
export function touchScreen() {
  return matchMedia("(pointer: coarse)").matches
    || (navigator.maxTouchPoints > 0 && !matchMedia("(any-pointer: fine)").matches);
}

/**
 * The text for `key` in the words of the device: `key_touch` on a touch screen.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 */
export function tt(key, params = {}) {
  return t(touchScreen() ? `${key}_touch` : key, params);
}

/**
 * A list in words: "a, b and c".
 * @param {string[]} items
 */
export function listing(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")}${t("log.and")}${items[items.length - 1]}`;
}

/**
 * A server refusal in the page's language: the server explains in English, so the
 * German page names the refusal and, where known, the ruling in German.
 * @param {string} code
 * @param {string} message
 * @param {string|null} ruling
 */
export function refusal(code, message, ruling) {
  // the guided game's refusal, already in the page's words (tour/tour.js)
  if (code === "tour_move") return message;
  if (lang === "en") {
    if (message) return message;
    return t(`err.${code}`, { code });
  }
  const base = TEXTS.de[`err.${code}`] ? t(`err.${code}`) : t("err.other", { code });
  if (code === "illegal_action") {
    const rule = ruling ? DE_RULINGS[ruling] : undefined;
    return rule ? `${base}: ${rule} (${ruling})` : `${base}${ruling ? ` (${ruling})` : "."}`;
  }
  if (code === "undo_refused") {
    const reason = DE_UNDO_REASONS.find(([en]) => message.includes(en));
    return reason ? `${base}: ${reason[1]}` : `${base}.`;
  }
  return base;
}

/**
 * A caught error as text for the page: a server refusal in the page's language,
 * anything else as its own string.
 * @param {unknown} e
 */
export function errorText(e) {
  return e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e);
}

/** The language switch for a page header. */
export function langSwitch() {
  const box = h("div", { class: "lang", role: "group", "aria-label": t("lang.label") });
  for (const l of /** @type {Lang[]} */ (["en", "de"])) {
    box.append(h("button", {
      type: "button", lang: l, "aria-pressed": String(l === lang), title: NAMES[l],
      onclick: () => setLang(l).catch((e) => console.error(e)),
    }, l.toUpperCase()));
  }
  return box;
}

document.documentElement.lang = lang;
