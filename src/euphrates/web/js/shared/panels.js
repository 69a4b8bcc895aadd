// Panels both tables build alike: the decision panel around each game's choosers,
// the two sides of a conflict, the commitment, the head of a seat, and the places a
// choice lights while it is pointed at.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { leaderIcon } from "./symbols.js";
import { dynastyOf } from "./pieces.js";
import { ruleLink } from "./rulelinks.js";
import { seatClock } from "./clock.js";
import { presenceDot, presenceOf } from "./presence.js";

/** @typedef {import("./types.js").SeatMeta} SeatMeta */
/**
 * What these panels read of a table's `Ui` (js/seating.js).
 * @typedef {object} Ui
 * @property {{decision?: import("./types.js").Decision|null}} view
 * @property {number|null} me
 * @property {{game: string}} game
 * @property {boolean} deciding
 * @property {{commits: number[], other: string[]}} legal
 * @property {(seat: number) => string} name
 * @property {(text: string) => void} act
 * @property {number} commit
 * @property {(n: number) => void} setCommit
 * @property {() => void} redraw draw the table again as it stands
 */

/**
 * Light `places` while a choice is pointed at or focused (spread into its attributes).
 * @param {{preview: (places: Set<string>|null) => void}} ui
 * @param {Set<string>} places
 */
export function pointing(ui, places) {
  return {
    onmouseenter: () => ui.preview(places), onmouseleave: () => ui.preview(null),
    onfocus: () => ui.preview(places), onblur: () => ui.preview(null),
  };
}

/**
 * Who is to decide what, with the public facts of a pending conflict; the deciding
 * seat's own chooser for it, and any choice the page has no chooser for.
 * @template {Ui} U
 * @param {U} ui
 * @param {object} game
 * @param {(ui: U) => Node} game.conflict the conflict's sides, shown to everyone
 * @param {Record<string, (ui: U) => Node>} game.choosers by the decision's kind
 * @param {string} game.what the prefix of the decisions' names
 * @param {boolean} [game.dataKind] the panel names the decision's kind (`data-kind`)
 * @param {(ui: U, colour: string) => number} game.held matching tiles or cards in the viewer's hand
 */
export function decisionSection(ui, { conflict, choosers, what, dataKind = false, held }) {
  const d = ui.view.decision;
  if (!d) return null;
  const attrs = dataKind ? { "data-kind": d.kind } : {};
  const parts = [];
  if (d.kind === "commit") parts.push(conflict(ui), hinting(ui)?.reach(ui, held) ?? null);
  const section = whySection(d);
  const why = section ? ruleLink(ui.game.game, section, t("rules.why"), "why") : null;
  if (!ui.deciding) {
    if (d.kind !== "action") {
      parts.push(h("p", { class: "waiting" }, t("table.waiting_for", { name: ui.name(d.seat), what: t(`${what}${d.kind}`) })));
    }
    return parts.length ? h("section", { class: "panel decision", "aria-live": "polite", ...attrs }, why, ...parts) : null;
  }
  const chooser = Object.hasOwn(choosers, d.kind) ? choosers[d.kind] : null;
  if (chooser) parts.push(chooser(ui));
  if (ui.legal.other.length) {
    parts.push(h("div", { class: "choices" }, ...ui.legal.other.map((a) => h("button", { type: "button", onclick: () => ui.act(a) }, a))));
  }
  return parts.length ? h("section", { class: "panel decision mine", "aria-live": "polite", ...attrs }, why, ...parts) : null;
}

/** @type {typeof import("./hints.js")|null} */
let hints = null;

/**
 * The strength hints (shared/hints.js), loaded when first needed, then drawn again. Drawn
 * again as the table stands then: a commitment chosen while the module loaded is kept
 * (`ui` is the drawing's, and its `commit` may be stale by then).
 * @param {{redraw: () => void}} ui
 */
export function hinting(ui) {
  if (!hints) void import("./hints.js").then(async (m) => { await m.ready; hints = m; ui.redraw(); });
  return hints;
}

/**
 * Each side's strength while a conflict waits.
 * @param {{decision?: import("./types.js").Decision|null}} view
 * @param {(seat: number) => string} name
 */
export function conflictLine(view, name) {
  return hints?.conflictLine(view, name) ?? null;
}

/** The reference's section each decision is about (web/rules/). */
const WHY = /** @type {Record<string, string|undefined>} */ ({
  war_order: "war", monument: "monuments", treasure: "treasures", exchange: "treasures", point: "points", ship: "ships", ship_point: "ships",
});

/** @param {import("./types.js").Decision} d */
const whySection = (d) => (d.kind === "commit" ? (d.context?.conflict === "war" ? "war" : "revolt") : WHY[d.kind]);

/**
 * The attacker and the defender side by side: strength before commitments, plus what
 * is committed (the attacker's is known once the defender decides).
 * @param {(seat: number) => string} name
 * @param {(seat: number) => Node} icon a seat's leader in the conflict
 * @param {string} base the text key of the strength before commitments
 * @param {{attacker: number, defender: number, aBase: number, dBase: number, aCommit: number|null}} c
 */
export function conflictSides(name, icon, base, c) {
  /**
   * @param {string} role
   * @param {number} seat
   * @param {number} strength
   * @param {number|null} commit
   */
  const side = (role, seat, strength, commit) => h("div", { class: `side ${role}` },
    h("div", { class: "who" }, icon(seat),
      h("span", { class: "who-name" }, name(seat), h("span", { class: "role" }, t(`conflict.${role}`)))),
    h("div", { class: "sum" },
      h("span", { title: t(base) }, String(strength)), " + ",
      h("span", { title: t("conflict.committed") }, commit === null ? "?" : String(commit)), " = ",
      h("strong", { class: "total" }, commit === null ? "?" : String(strength + commit))));
  // The sums' legend once, under both sides: the same words in each took two lines each
  // and pushed the hand below a laptop's fold.
  return h("div", { class: "sides" },
    side("attacker", c.attacker, c.aBase, c.aCommit),
    side("defender", c.defender, c.dBase, null),
    h("div", { class: "sum-legend" }, `${t(base)} + ${t("conflict.committed")}`));
}

/**
 * The commitment: how many, the advice for the role, the button.
 * @param {Ui} ui
 * @param {Node} prompt what may be committed and how many are held
 */
export function commitChooser(ui, prompt) {
  const c = /** @type {Record<string, any>} */ (ui.view.decision?.context ?? {});
  const options = ui.legal.commits.length ? ui.legal.commits : [0];
  const max = Math.max(...options);
  const n = Math.min(Math.max(ui.commit, 0), max);
  const role = c.role ?? (c.attacker_commit === null || c.attacker_commit === undefined ? "attacker" : "defender");
  let advice = "";
  if (role === "defender") {
    const x = Number(c.attacker_strength ?? 0) + Number(c.attacker_commit ?? 0);
    const need = x - Number(c.defender_strength ?? 0);
    if (need <= max) advice = t("conflict.need_hold", { n: Math.max(0, need) });
    else if (hinting(ui)) advice = t("conflict.reach_short", { x, y: x - need + max });
  } else {
    advice = t("conflict.secret");
  }
  return h("div", { class: "commit" },
    prompt,
    h("div", { class: "commit-row", role: "group" }, ...options.map((k) => h("button", {
      type: "button", class: `commit-n${k === n ? " selected" : ""}`, "aria-pressed": String(k === n), "data-commit": k,
      onclick: () => ui.setCommit(k),
    }, String(k)))),
    advice ? h("p", { class: "hint" }, advice) : null,
    h("button", { type: "button", class: "primary big", id: "commit", onclick: () => ui.act(`commit ${n}`) }, t("conflict.commit", { n })));
}

/**
 * The pass, which says on it and in its title that it ends the whole turn (G-2).
 * @param {{act: (text: string) => void}} ui
 * @param {boolean} enabled
 * @param {number} left the turn's actions left, given up by passing
 */
export function passButton(ui, enabled, left) {
  const hint = t("table.pass_hint", { n: left });
  return h("button", {
    type: "button", id: "pass", disabled: !enabled, title: hint, "aria-description": hint, onclick: () => ui.act("pass"),
  }, t("table.pass"));
}

/**
 * A seat's head: dynasty, name, "you", whether its person is online, and its clock; a
 * bot playing on for a person who left is marked.
 * @param {{name: (seat: number) => string, game?: import("./types.js").GameMeta|null}} ui
 * @param {SeatMeta} meta
 * @param {number[]} held seats this screen holds
 * @param {string} dynasty the prefix of the dynasties' names
 */
export function seatHead(ui, meta, held, dynasty) {
  const i = meta.seat;
  return h("div", { class: "seat-head" },
    leaderIcon("black", dynastyOf(i), 26, t(`${dynasty}${dynastyOf(i)}`)),
    h("span", { class: "seat-name" }, ui.name(i)),
    held.includes(i) ? h("span", { class: "tag" }, t("table.you")) : null,
    meta.kind === "human" && meta.taken ? presenceDot(presenceOf(meta)) : null,
    meta.kind === "bot" && meta.name ? h("span", { class: "tag bot-plays" }, t("clock.bot", { level: t(`level.${meta.level ?? "intermediate"}`) })) : null,
    seatClock(ui.game?.clock, i, held));
}

/**
 * The seats' panel around one row a seat.
 * @param {Node[]} rows
 */
export function seatsSection(rows) {
  return h("section", { class: "panel seats", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, t("table.players")),
    h("ol", {}, ...rows));
}
