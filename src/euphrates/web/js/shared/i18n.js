// The pages' languages: those of web/words/languages.json, each a folder
// web/words/<lang>/ of JSON parts with the same keys (tests/words). The language comes
// from `?lang=`, else the player's choice (remembered in localStorage), else the
// browser's; every page re-renders when it changes.
//
// A page fetches only the parts it uses, in its language only: `pages` (the pages' own
// texts) always, a game's part of the book of words and `common` with its words module
// (`loadWords`, shared with the terminal through euphrates.words), and its own texts
// (`useTexts`: the card table's, the guided game's, the fair-play page's). A key stands
// in one part only, so the parts merge into one table per language.

import { h } from "./dom.js";
import { ServerError } from "./net.js";

/** @typedef {string} Lang a key of web/words/languages.json */

const WORDS = new URL("../../words/", import.meta.url);
const KEY = "euphrates.lang";

/**
 * A JSON file of web/words/, fetched.
 * @param {string} name
 */
async function fetchJson(name) {
  const res = await fetch(new URL(`${name}.json`, WORDS));
  if (!res.ok) throw new Error(`words/${name}.json: ${res.status}`);
  return res.json();
}

/** Each language's name in itself, for the switch. @type {Record<Lang, string>} */
const NAMES = await fetchJson("languages");
const LANGS = Object.keys(NAMES);

/** @returns {Lang} */
function initial() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGS.includes(asked)) return asked;
  const stored = safeGet(KEY);
  if (stored && LANGS.includes(stored)) return stored;
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = l.toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
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

/** The parts the page uses, and each language's texts of those loaded so far. */
/** @type {Set<string>} */
const parts = new Set(["pages"]);
/** @type {Record<Lang, Record<string, string>>} */
const TEXTS = Object.fromEntries(LANGS.map((l) => [l, {}]));
/** @type {Map<string, Promise<void>>} */
const loading = new Map();
let switches = 0;

/**
 * One part in one language, fetched once (again only after a failure).
 * @param {Lang} l
 * @param {string} part
 */
function loadPart(l, part) {
  const name = `${l}/${part}`;
  let done = loading.get(name);
  if (!done) {
    done = fetchJson(name).then((texts) => { Object.assign(TEXTS[l], texts); });
    done.catch(() => loading.delete(name));
    loading.set(name, done);
  }
  return done;
}

/** @type {Lang} */
let lang = initial();
try {
  await loadPart(lang, "pages");
} catch {
  lang = "en"; // the texts of the language chosen did not arrive: the page speaks English
  await loadPart(lang, "pages");
}
/** @type {(() => void)[]} */
const listeners = [];

/**
 * A part of the texts the page uses from now on, in its language (and in the next one
 * chosen): awaited before anything that says its texts is drawn.
 * @param {string} part a file of web/words/<lang>/ without ".json"
 */
export async function useTexts(part) {
  parts.add(part);
  // in the language the page speaks once loaded: another chosen meanwhile loads it too
  let l;
  do {
    l = lang;
    await loadPart(l, part);
  } while (l !== lang);
}

/**
 * The book's words of a game (and those both games share), in the page's language:
 * awaited by the game's words module before anything of the game is drawn.
 * @param {string} game "board", "cards" or "hints"
 */
export async function loadWords(game) {
  await Promise.all([useTexts("common"), useTexts(game)]);
}

export function currentLang() {
  return lang;
}

/** The languages a page offers, each with its name in itself. */
export function languages() {
  return Object.entries(NAMES);
}

/**
 * Another language, once the parts in use are there in it (a later choice wins over an
 * earlier one still loading; a failed load leaves the language as it was).
 * @param {Lang} l
 */
async function setLang(l) {
  const asked = ++switches;
  // every part in use, those a module began to use while these loaded included
  let wanted;
  do {
    wanted = parts.size;
    await Promise.all([...parts].map((part) => loadPart(l, part)));
  } while (parts.size !== wanted);
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
 * The text for `key`: each `{n|…|…}` as the form the count `n` asks for, then the
 * `{name}` parameters filled in (after, so that nothing a parameter holds, a player's
 * name, is read as a form).
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  return format(TEXTS[lang][key] ?? key, params, lang);
}

/** CLDR's plural categories in their order: a text's forms follow it. */
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];
/** @type {Map<string, {rules: Intl.PluralRules, order: string[]}>} */
const PLURALS = new Map();

/**
 * Which of a text's forms a count takes in a language: the forms follow the
 * language's plural categories in CLDR's order (English, German, Dutch and Hungarian
 * have two, `one` and `other`; a language with more writes more forms), and the
 * category is the platform's (Intl.PluralRules), as Python's is Babel's.
 * @param {unknown} count
 * @param {string} l
 */
export function formIndex(count, l) {
  let p = PLURALS.get(l);
  if (!p) {
    const rules = new Intl.PluralRules(l);
    const has = rules.resolvedOptions().pluralCategories;
    p = { rules, order: CATEGORIES.filter((c) => has.includes(/** @type {Intl.LDMLPluralRule} */ (c))) };
    PLURALS.set(l, p);
  }
  const n = Number(count);
  return p.order.indexOf(Number.isFinite(n) ? p.rules.select(n) : "other");
}

/**
 * A text with its forms chosen and its parameters filled in (the book's syntax, as
 * `format` in euphrates/words/book.py; tests/web/test_book.py compares the two). A text
 * with fewer forms than the language's categories takes its last for the rest.
 * @param {string} text
 * @param {Record<string, string | number>} params
 * @param {string} [l] the language whose plural rules choose the forms
 */
export function format(text, params, l = lang) {
  return text
    .replace(/\{(\w+)((?:\|[^|{}]*)+)\}/g, (all, name, forms) => {
      if (!(name in params)) return all;
      const list = forms.slice(1).split("|");
      return list[Math.min(formIndex(params[name], l), list.length - 1)];
    })
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
  const text = TEXTS[lang][key] ?? key;
  const used = new Set();
  return format(text.replace(/\{(\w+)\}/g, (all, name) => (name in nodes ? `\u0000${name}\u0000` : all)), params, lang)
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

/** The server's reasons why an undo is refused (room.undo_refusal), by a phrase of each. */
const UNDO_REASONS = [
  ["nothing to take back", "undo.nothing"],
  ["only the seat that made", "undo.not_yours"],
  ["bots do not", "undo.bots"],
  ["revealed hidden", "undo.revealed"],
  ["game is over", "undo.over"],
];

/**
 * A server refusal in the page's language: the server explains in English, so a page in
 * another language names the refusal and, where known, the ruling in its own words.
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
  const has = (/** @type {string} */ key) => key in TEXTS[lang];
  const base = has(`err.${code}`) ? t(`err.${code}`) : t("err.other", { code });
  if (code === "illegal_action") {
    const rule = ruling && has(`ruling.${ruling}`) ? t(`ruling.${ruling}`) : undefined;
    return rule ? `${base}: ${rule} (${ruling})` : `${base}${ruling ? ` (${ruling})` : "."}`;
  }
  if (code === "undo_refused") {
    const reason = UNDO_REASONS.find(([phrase]) => message.includes(phrase))?.[1];
    // the card game's own words where it differs (its texts are used by its pages only)
    const key = reason && parts.has("pages-cards") && has(`${reason}.cards`) ? `${reason}.cards` : reason;
    return key && has(key) ? `${base}: ${t(key)}` : `${base}.`;
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
  for (const [l, name] of languages()) {
    box.append(h("button", {
      type: "button", lang: l, "aria-pressed": String(l === lang), title: name,
      onclick: () => setLang(l).catch((e) => console.error(e)),
    }, l.toUpperCase()));
  }
  return box;
}

document.documentElement.lang = lang;
