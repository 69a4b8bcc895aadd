// One step of a move log as both games show it, in the table's log and in the replay;
// each game brings the step's words (board/words.js, cards/words.js).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { dynastyOf } from "./pieces.js";
import { leaderIcon } from "./symbols.js";

/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").Step} Step */

/**
 * A step's items in the log, alike in both games: the dynasty of the seat that moved,
 * the step's words (its lines, then the points scored, and whether a bot made the move
 * for a person whose clock ran out) and its notation; then, where
 * the step passed the turn, whose turn it is now.
 * @param {Step} step
 * @param {boolean} undone
 * @param {{lines: Node[], scores: Node[], note: string, turn: GameEvent|undefined, name: (seat: number) => string}} words
 */
export function stepItems(step, undone, { lines, scores, note, turn, name }) {
  const undo = step.kind === "undo";
  const entry = h("li", { class: `step${undone ? " undone" : ""}${undo ? " undo" : ""}`, "data-version": step.version },
    step.seat !== null && step.seat !== undefined && !undo ? leaderIcon("black", dynastyOf(step.seat), 18) : null,
    h("div", { class: "words" }, ...lines, scores.length ? h("div", { class: "scores" }, ...scores) : null,
      step.bot ? h("div", { class: "by-bot" }, t("log.by_bot", { level: t(`level.${step.bot}`) })) : null),
    note ? h("code", { class: "notation" }, note) : null);
  const items = [entry];
  if (turn && typeof turn.seat === "number") items.push(h("li", { class: "turn-mark" }, t("log.turn", { who: name(turn.seat) })));
  return items;
}
