// The sides of the wars a joining tile started, for the war-order panel: loaded when
// that panel is first shown, not with the table.

import { LEADER_COLOUR } from "../shared/pieces.js";
import { readBoard, regionAt } from "./kingdoms.js";

export { ready, warStrength } from "../shared/hints.js";

/** @typedef {import("../shared/types.js").BoardView} BoardView */

/**
 * The two sides of a war still to be fought (B-24), attacker first (B-23): the leaders
 * of `colour` in the region of the joining tile, each with the face-up tiles of that
 * colour in its own part, the joining tile left out. From the view, for display.
 * @param {BoardView} view
 * @param {string} colour
 * @returns {{seat: number, strength: number}[]}
 */
export function warSides(view, colour) {
  const joint = view.board?.unification;
  const board = readBoard(view);
  const joined = joint ? regionAt(board, joint) : null;
  if (!joint || !joined) return [];
  board.tileAt.delete(joint);
  const order = (/** @type {number} */ seat) => (seat - view.turn.active + view.players) % view.players;
  return joined.leaders.filter((l) => LEADER_COLOUR[l.leader] === colour).sort((a, b) => order(a.seat) - order(b.seat))
    .map((l) => ({ seat: l.seat, strength: regionAt(board, l.square)?.tiles[colour] ?? 0 }));
}
