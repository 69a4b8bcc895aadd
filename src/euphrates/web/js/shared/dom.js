// Small DOM helpers. Text always goes in as text nodes (never HTML), so nothing a
// player types or a server sends can become markup.

const SVG_NS = "http://www.w3.org/2000/svg";

/** @typedef {string | number | Node | null | undefined | false} Child */
/** @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attrs */

/**
 * @param {Element} el
 * @param {Attrs} attrs
 */
function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") {
      el.addEventListener(k.replace(/^on/, ""), v);
    } else if (k === "class") {
      el.setAttribute("class", String(v));
    } else {
      el.setAttribute(k, v === true ? "" : String(v));
    }
  }
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
}

/**
 * An HTML element with attributes (functions become listeners) and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** @type {Map<string, Promise<void>>} */
const SHEETS = new Map();

/**
 * A game's own stylesheet, which the pages do not link: added once, by the game's
 * module; resolves once it applies (or has failed: the page works without it).
 * @param {string} href
 * @returns {Promise<void>}
 */
export function stylesheet(href) {
  let loaded = SHEETS.get(href);
  if (!loaded) {
    const link = h("link", { rel: "stylesheet", href });
    loaded = new Promise((resolve) => {
      link.addEventListener("load", () => resolve());
      link.addEventListener("error", () => resolve());
    });
    document.head.append(link);
    SHEETS.set(href, loaded);
  }
  return loaded;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Replace an element's children.
 * @param {Element} el
 * @param {...Child} children
 */
export function fill(el, ...children) {
  keepingFocus(() => {
    el.replaceChildren();
    append(el, children);
  });
}

/**
 * Run `draw`, and give the focus back to the field that had it if the drawing kept
 * the field (a name being typed while the page is drawn again): taken out of the page
 * for a moment, it lost the focus, and the keys that follow would go nowhere. A page
 * whose drawing builds its parts before replacing the old ones (they may move a kept
 * field) wraps the whole drawing.
 * @param {() => void} draw
 */
export function keepingFocus(draw) {
  const focused = document.activeElement;
  const kept = focused instanceof HTMLElement && focused !== document.body ? focused : null;
  const caret = kept instanceof HTMLInputElement || kept instanceof HTMLTextAreaElement ? caretOf(kept) : null;
  draw();
  if (!kept || !kept.isConnected || document.activeElement === kept) return;
  kept.focus({ preventScroll: true });
  if (caret && (kept instanceof HTMLInputElement || kept instanceof HTMLTextAreaElement)) {
    try {
      kept.setSelectionRange(caret[0], caret[1]);
    } catch {
      /* an input type without a caret (number, e-mail) */
    }
  }
}

/**
 * @param {HTMLInputElement|HTMLTextAreaElement} field
 * @returns {[number, number]|null}
 */
function caretOf(field) {
  try {
    return field.selectionStart === null || field.selectionEnd === null ? null : [field.selectionStart, field.selectionEnd];
  } catch {
    return null;
  }
}

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}

/**
 * Copy text to the clipboard, falling back to a selected input where the
 * clipboard API is not allowed (plain http on another host).
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "offscreen" }, text);
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/**
 * A new decision's panel, scrolled into view where it lies outside the window (a phone
 * scrolled down to the log or the chat), unless the player is typing a chat line.
 * @param {Element|null} panel
 */
export function bringIntoView(panel) {
  if (!panel) return;
  const typing = document.activeElement?.id === "chat-input";
  const r = panel.getBoundingClientRect();
  if (typing || (r.top >= 0 && r.top < innerHeight - 40)) return;
  panel.scrollIntoView({ block: "nearest" });
}
