// Regions and kingdoms as B-4 defines them, computed from a view for display only
// (hover highlights and leader strengths); the rules themselves are the server's.

import { COLOURS, LEADER_COLOUR, LEADERS } from "../shared/pieces.js";
import { block, neighbours } from "./geometry.js";

/** @typedef {import("../shared/types.js").BoardView} BoardView */
/** @typedef {import("../shared/pieces.js").Leader} Leader */

/**
 * @typedef {object} PlacedLeader
 * @property {number} seat
 * @property {Leader} leader
 * @property {string} square
 */

/**
 * @typedef {object} Region
 * @property {Set<string>} squares
 * @property {PlacedLeader[]} leaders
 * @property {Record<string, number>} tiles face-up tiles by colour
 * @property {number} treasures
 */

/**
 * @typedef {object} Board
 * @property {Map<string, string>} tileAt colour of the face-up tile on a square
 * @property {Set<string>} flipped monument squares (connect, count for nothing, B-5)
 * @property {Map<string, PlacedLeader>} leaderAt
 * @property {Set<string>} catastrophes
 * @property {Set<string>} treasures
 * @property {string|null} unification the joining tile while its wars are fought (B-24)
 */

/**
 * @param {BoardView} view
 * @returns {Board}
 */
export function readBoard(view) {
  const tileAt = new Map();
  const b = view.board ?? {};
  for (const c of COLOURS) for (const sq of b.tiles?.[c] ?? []) tileAt.set(sq, c);
  const flipped = new Set();
  for (const m of b.monuments ?? []) for (const sq of block(m.square)) flipped.add(sq);
  const leaderAt = new Map();
  (view.seats ?? []).forEach((seat, i) => {
    for (const l of LEADERS) {
      const sq = seat.leaders?.[l];
      if (sq) leaderAt.set(sq, { seat: i, leader: l, square: sq });
    }
  });
  return {
    tileAt,
    flipped,
    leaderAt,
    catastrophes: new Set(b.catastrophes ?? []),
    treasures: new Set(b.treasures ?? []),
    unification: b.unification ?? null,
  };
}

/**
 * @param {Board} board
 * @param {string} sq
 */
function occupied(board, sq) {
  return board.tileAt.has(sq) || board.flipped.has(sq) || board.leaderAt.has(sq);
}

/**
 * The region (tiles, flipped tiles and leaders that touch, B-4) holding a square.
 * @param {Board} board
 * @param {string} start
 * @param {string|null} [without] a square counted as empty (the joining tile in a war)
 * @returns {Region | null}
 */
export function regionAt(board, start, without = null) {
  if (start === without || !occupied(board, start)) return null;
  const squares = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const sq = /** @type {string} */ (queue.pop());
    for (const n of neighbours(sq)) {
      if (!squares.has(n) && n !== without && occupied(board, n)) {
        squares.add(n);
        queue.push(n);
      }
    }
  }
  /** @type {Record<string, number>} */
  const tiles = { red: 0, blue: 0, green: 0, black: 0 };
  /** @type {PlacedLeader[]} */
  const leaders = [];
  let treasures = 0;
  for (const sq of squares) {
    const c = board.tileAt.get(sq);
    if (c) tiles[c] = (tiles[c] ?? 0) + 1;
    const l = board.leaderAt.get(sq);
    if (l) leaders.push(l);
    if (board.treasures.has(sq)) treasures += 1;
  }
  return { squares, leaders, tiles, treasures };
}

/**
 * A leader's strengths in its kingdom: in a war, the face-up tiles of its colour
 * (B-24); in a revolt, the temples next to it (B-20). While the wars of a joining are
 * fought, the joining tile counts as absent: each leader's side is its own part of the
 * joined kingdom, as the war counts it (B-24).
 * @param {Board} board
 * @param {Region} region
 * @param {PlacedLeader} leader
 */
export function strengths(board, region, leader) {
  const colour = LEADER_COLOUR[leader.leader];
  const temples = neighbours(leader.square).filter((n) => board.tileAt.get(n) === "red").length;
  const joining = board.unification;
  const side = joining && region.squares.has(joining) ? regionAt(board, leader.square, joining) : region;
  return { war: side?.tiles[colour] ?? 0, revolt: temples };
}
