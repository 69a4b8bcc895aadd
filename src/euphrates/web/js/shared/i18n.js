// English and German. The language comes from the browser unless the player chose
// one (remembered in localStorage); every page re-renders when it changes.

import { h } from "./dom.js";
import { ServerError } from "./net.js";
import { EN } from "./strings/en.js";
import { DE, DE_RULINGS, DE_UNDO_REASONS } from "./strings/de.js";

/** @typedef {"en"|"de"} Lang */

/** @type {Record<Lang, Record<string, string>>} */
const TEXTS = { en: EN, de: DE };
const KEY = "euphrates.lang";

/** @returns {Lang} */
function initial() {
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
/** @type {(() => void)[]} */
const listeners = [];

export function currentLang() {
  return lang;
}

/** @param {Lang} l */
function setLang(l) {
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
  const text = TEXTS[lang][key] ?? EN[key] ?? key;
  return text
    .replace(/\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g, (all, name, one, other) =>
      name in params ? (Number(params[name]) === 1 ? one : other) : all)
    .replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
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
      type: "button", lang: l, "aria-pressed": String(l === lang), title: TEXTS[l]["lang.name"] ?? l,
      onclick: () => setLang(l),
    }, l.toUpperCase()));
  }
  return box;
}

document.documentElement.lang = lang;
