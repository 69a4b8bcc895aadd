// Short animations of the pieces a drawing shows (both games): a piece that arrives
// grows in, one that leaves fades out where it stood, one that moves (a leader, a card
// moving up its column) glides from its old place. Each lasts at most 250 ms, runs on
// the SVG elements the drawing made (Web Animations), and none runs for a player who
// asks the system for reduced motion.

/** How long an animation lasts, in ms: short enough to never hold up play. */
export const MOTION_MS = 250;

/** Whether the player's system asks for reduced motion (read at each use: it may change). */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {Element} el what the piece is, whatever its place */
function identity(el) {
  return ["class", "data-colour", "data-seat", "data-leader", "data-card", "data-monument"]
    .map((a) => el.getAttribute(a) ?? "").join("|");
}

/** @param {Element} el where the piece is */
function place(el) {
  return el.getAttribute("data-sq") ?? el.getAttribute("data-spot") ?? "";
}

/** @param {Element} el */
function column(el) {
  return place(el).split(/[.-]/)[0] ?? "";
}

/**
 * Replace a layer's pieces with `next`, animating what changed. The first drawing (an
 * empty layer) and reduced motion replace without animating.
 * @param {SVGElement} layer
 * @param {Element[]} next
 */
export function replacePieces(layer, next) {
  const before = [...layer.children];
  if (!before.length || reducedMotion()) {
    layer.replaceChildren(...next);
    return;
  }
  // What changed, and where a moved piece came from, is read from the pieces'
  // attributes alone: the drawing never asks the page for its layout.
  const key = (/** @type {Element} */ el) => `${identity(el)}@${place(el)}`;
  const had = new Set(before.map(key));
  const has = new Set(next.map(key));
  const left = before.filter((el) => !has.has(key(el)));
  const arrived = next.filter((el) => !had.has(key(el)));
  /** @type {[Element, number, number][]} */
  const moved = [];
  /** @type {Element[]} */
  const popped = [];
  for (const el of arrived) {
    // The same piece gone from elsewhere (in the same column, for cards) moved here.
    const from = left.findIndex((o) => identity(o) === identity(el) && (el.hasAttribute("data-sq") || column(o) === column(el)));
    if (from < 0) {
      popped.push(el);
      continue;
    }
    const old = /** @type {Element} */ (left.splice(from, 1)[0]);
    const [ox, oy] = position(old);
    const [nx, ny] = position(el);
    if (ox !== nx || oy !== ny) moved.push([el, ox - nx, oy - ny]);
  }
  layer.replaceChildren(...next);
  if (!popped.length && !moved.length && !left.length) return;
  // Started at the next frame, not inside the drawing: starting an animation makes the
  // browser work out styles at once, and a drawing must stay quick. Until then the
  // pieces stand where and as the animation begins.
  for (const el of popped) /** @type {SVGElement} */ (el).style.opacity = "0";
  for (const [el, dx, dy] of moved) /** @type {SVGElement} */ (el).style.translate = `${dx}px ${dy}px`;
  const ghosts = left.map((el) => fade(layer, el));
  requestAnimationFrame(() => {
    for (const el of popped) {
      /** @type {SVGElement} */ (el).style.opacity = "";
      animate(el, { opacity: [0, 1], scale: [0.6, 1] });
    }
    for (const [el, dx, dy] of moved) {
      /** @type {SVGElement} */ (el).style.translate = "";
      animate(el, { translate: [`${dx}px ${dy}px`, "0px 0px"] });
    }
    for (const ghost of ghosts) {
      const a = animate(ghost, { opacity: [1, 0], scale: [1, 0.8] });
      a.finished.then(() => ghost.remove(), () => ghost.remove());
    }
  });
}

/**
 * Where a piece stands, in the drawing's units, read from its attributes (no layout):
 * its translation, else the centre of its first circle.
 * @param {Element} el
 * @returns {[number, number]}
 */
function position(el) {
  const m = /translate\(\s*([-\d.]+)[ ,]+([-\d.]+)\s*\)/.exec(el.getAttribute("transform") ?? "");
  if (m) return [Number(m[1]), Number(m[2])];
  const c = el.querySelector("circle");
  return [Number(c?.getAttribute("cx") ?? 0), Number(c?.getAttribute("cy") ?? 0)];
}

/**
 * A copy of a piece, to fade out where it stood, in a layer of its own beside the
 * pieces: it is no piece any more (no class or data a test or a click would find).
 * @param {SVGElement} layer the pieces' layer
 * @param {Element} el
 */
export function fade(layer, el) {
  let ghosts = layer.nextElementSibling;
  if (!ghosts?.classList.contains("ghosts")) {
    ghosts = document.createElementNS("http://www.w3.org/2000/svg", "g");
    ghosts.setAttribute("class", "ghosts");
    ghosts.setAttribute("aria-hidden", "true");
    ghosts.setAttribute("pointer-events", "none");
    layer.after(ghosts);
  }
  const ghost = /** @type {Element} */ (el.cloneNode(true));
  for (const a of [...ghost.attributes]) if (a.name === "class" || a.name.startsWith("data-") || a.name === "aria-label") ghost.removeAttribute(a.name);
  ghost.setAttribute("class", "ghost");
  ghosts.append(ghost);
  return ghost;
}

/**
 * One piece's animation, named "piece" (the browser tests count them).
 * @param {Element} el
 * @param {Keyframe[] | PropertyIndexedKeyframes} frames
 */
export function animate(el, frames) {
  /** @type {SVGElement} */ (el).style.transformBox = "fill-box";
  /** @type {SVGElement} */ (el).style.transformOrigin = "center";
  const a = el.animate(frames, { duration: MOTION_MS, easing: "ease-out" });
  a.id = "piece";
  return a;
}

/**
 * A piece shown again as it arrived (the replay of a turn): grows in, unless motion
 * is reduced.
 * @param {Element} el
 */
export function flash(el) {
  if (!reducedMotion()) animate(el, { opacity: [0, 1], scale: [0.6, 1] });
}
