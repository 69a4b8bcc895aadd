// Strength hints, loaded with their words (the book's part `hints`) when a conflict or
// a war order is first shown: what the defender can reach, each side's strength for
// the info line, each war's strengths.

import { h } from "./dom.js";
import { loadWords, t } from "./i18n.js";

/** Settled once the words are there. */
export const ready = loadWords("hints");

/** @typedef {import("./panels.js").Ui} Ui */

/**
 * The defender's outlook while the attacker has still to commit: what the attacker
 * has now, and the most the defender's own hand can reach (the attacker's commitment
 * is unknown, G-1); said plainly when even that cannot hold.
 * @template {Ui} U
 * @param {U} ui
 * @param {(ui: U, colour: string) => number} held
 */
export function reach(ui, held) {
  const c = /** @type {Record<string, any>} */ (ui.view.decision?.context ?? {});
  if (ui.me === null || ui.me !== Number(c.defender) || c.attacker_commit !== null && c.attacker_commit !== undefined) return null;
  const x = Number(c.attacker_strength ?? 0);
  const y = Number(c.defender_strength ?? 0) + held(ui, String(c.commit_colour ?? (c.conflict === "war" ? c.colour : "red")));
  return h("p", { class: `hint reach${y < x ? " cannot" : ""}` }, t(y < x ? "conflict.reach_short" : "conflict.reach", { x, y }));
}

/**
 * Each side's strength while a conflict waits for a commitment: the line under the
 * hovered square or kingdom.
 * @param {{decision?: import("./types.js").Decision|null}} view
 * @param {(seat: number) => string} name
 */
export function conflictLine(view, name) {
  const d = view.decision;
  if (d?.kind !== "commit") return null;
  const c = /** @type {Record<string, any>} */ (d.context ?? {});
  const committed = c.attacker_commit === null || c.attacker_commit === undefined ? null : Number(c.attacker_commit);
  const x = Number(c.attacker_strength ?? 0);
  return h("p", { class: "info-line conflict-line" }, t(committed === null ? "conflict.line" : "conflict.line_committed", {
    a: name(Number(c.attacker)), x, n: committed ?? 0, total: x + (committed ?? 0),
    d: name(Number(c.defender)), y: Number(c.defender_strength ?? 0),
  }));
}


/**
 * A war's strengths in the war-order panel, attacker first ("priest: 4 against 3").
 * @param {string} leader the leader's name
 * @param {number} x
 * @param {number} y
 */
export function warStrength(leader, x, y) {
  return h("span", { class: "war-strength" }, t("war.strength", { leader, x, y }));
}
