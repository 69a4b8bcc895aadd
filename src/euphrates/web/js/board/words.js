// The move log in words, with square names, built from the events a client may
// see (never from another seat's action text), and the public notation of each
// step where the events show it (docs/board.md).

import { h } from "../shared/dom.js";
import { listing, loadWords, t } from "../shared/i18n.js";
import { stepItems } from "../shared/logentry.js";
import { LEADER_COLOUR, LEADER_LETTER, LETTER_COLOUR, LETTER_LEADER, TILE_LETTER, asColour, asLeader, leaderOfColour } from "../shared/pieces.js";

/** @type {Record<string, string>} */
const LETTER_COLOUR_OF = LETTER_COLOUR;
/** @type {Record<string, string>} */
const LETTER_LEADER_OF = LETTER_LEADER;
import { monumentColours } from "./draw.js";
import { tileIcon } from "../shared/symbols.js";

// The words of the log, the decisions and the scoring, before anything is drawn.
await loadWords("board");

/** @typedef {import("../shared/types.js").GameEvent} GameEvent */
/** @typedef {import("../shared/types.js").Step} Step */

/**
 * How the board game names itself, its bots, its dynasties and its decisions: on its
 * table, in the invitation and in its replay.
 * @type {import("../shared/seating.js").Words}
 */
export const WORDS = {
  title: "app.title", bot: "table.bot_name", dynasty: "dynasty.",
  coverHint: "table.cover_hint", reveal: "table.reveal", typeHint: "table.type_hint", what: "what.",
};

/**
 * @typedef {object} Names
 * @property {(seat: number) => string} name a seat's name as shown
 * @property {number|null} perspective whose private events may be shown
 */

/**
 * @param {string} c
 */
function colourWord(c) {
  return t(`colour.${c}`);
}

/**
 * One event in words, or null for events shown elsewhere (scores join their line).
 * @param {GameEvent} e
 * @param {Names} n
 * @returns {string|null}
 */
function describe(e, n) {
  const who = typeof e.seat === "number" ? n.name(e.seat) : "";
  const leader = (/** @type {string} */ l, /** @type {string} */ form) => (asLeader(l) ? t(`${form}.${l}`) : l);
  switch (e.kind) {
    case "turn_started":
      return null;
    case "tile_placed":
      return t("log.tile", { who, colour: t(`colour_n.${e.colour}`), tile: t(`tile.${e.colour}`), sq: e.square });
    case "leader_placed":
      return t("log.leader_placed", { who, leader: leader(e.leader, "leader_acc"), sq: e.square });
    case "leader_moved":
      return t("log.leader_moved", { who, leader: leader(e.leader, "leader_acc"), from: e.from, sq: e.square });
    case "leader_withdrawn":
      return t("log.leader_withdrawn", { who, leader: leader(e.leader, "leader_acc"), sq: e.square });
    case "leader_returned":
      return t("log.leader_returned", { who, leader: leader(e.leader, "leader_nom"), sq: e.square });
    case "catastrophe":
      return t("log.catastrophe", { who, sq: e.square });
    case "swapped":
      return t("log.swapped", { who, n: e.count });
    case "discarded":
      return e.audience === undefined || e.audience === n.perspective
        ? t("log.discarded", { tiles: tileList(e.tiles) }) : null;
    case "drew":
      return e.seat === n.perspective ? null : t("log.drew", { who, n: e.count });
    case "drew_tiles":
      return e.audience === undefined || e.audience === n.perspective
        ? t("log.drew_tiles", { who, tiles: tileList(e.tiles) }) : null;
    case "passed":
      return t("log.passed", { who });
    case "revolt":
    case "war":
      return t(`log.${e.kind}`, {
        leader: leader(e.leader, "leader"), a: n.name(e.attacker), d: n.name(e.defender),
        as: e.attacker_strength, ds: e.defender_strength,
      });
    case "wars":
      return t("log.wars", {
        list: listing((e.colours ?? []).map((/** @type {string} */ c) => {
          const colour = asColour(c);
          return colour ? t(`leaders.${leaderOfColour(colour)}`) : colourWord(c);
        })),
      });
    case "unification":
      return t("log.unification", { sq: e.square });
    case "unification_removed":
      return t("log.unification_removed");
    case "committed":
      return t("log.committed", { who, n: e.count });
    case "conflict_resolved":
      return t("log.resolved", { who: n.name(e.winner), at: e.attacker_total, dt: e.defender_total });
    case "tiles_removed": {
      const count = (e.squares ?? []).length;
      return t("log.tiles_removed", { n: count, tiles: t(count === 1 ? `tile.${e.colour}` : `tiles.${e.colour}`) });
    }
    case "scored":
      return null;
    case "monument_built": {
      const [a, b] = monumentColours(String(e.monument ?? ""));
      return t("log.monument_built", { a: colourWord(a), b: colourWord(b), sq: e.square });
    }
    case "monument_declined":
      return t("log.monument_declined", { who });
    case "treasure_taken":
      return t("log.treasure_taken", { who, sq: e.square });
    case "bag_empty":
      return t("log.bag_empty", { who });
    case "treasures_low":
      return t("log.treasures_low", { n: e.left });
    case "game_over":
      return t("log.game_over");
    case "undo":
      return t("log.undo", { who });
    default:
      return t("log.other", { kind: e.kind });
  }
}

/** @param {string[]} tiles */
function tileList(tiles) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const c of tiles ?? []) counts[c] = (counts[c] ?? 0) + 1;
  return Object.entries(counts).map(([c, k]) => `${k} ${t(k === 1 ? `tile.${c}` : `tiles.${c}`)}`).join(", ");
}

/**
 * The public notation of a step, from its events (docs/board.md).
 * @param {GameEvent[]} events
 */
function notation(events) {
  const first = events.find((e) => e.kind !== "turn_started");
  if (!first) return "";
  switch (first.kind) {
    case "tile_placed":
      return `${TILE_LETTER[/** @type {"red"} */ (first.colour)] ?? "?"}${first.square}`;
    case "leader_placed":
    case "leader_moved":
      return `${LEADER_LETTER[/** @type {"king"} */ (first.leader)] ?? "?"}${first.square}`;
    case "leader_withdrawn":
      return `${LEADER_LETTER[/** @type {"king"} */ (first.leader)] ?? "?"}-`;
    case "catastrophe":
      return `x${first.square}`;
    case "passed":
      return "pass";
    case "committed":
      return `commit ${first.count}`;
    case "war":
      return `war ${TILE_LETTER[/** @type {"red"} */ (LEADER_COLOUR[/** @type {"king"} */ (first.leader)])] ?? "?"}`;
    case "monument_built": {
      const [a, b] = monumentColours(String(first.monument ?? ""));
      return `monument ${TILE_LETTER[a]}${TILE_LETTER[b]} ${first.square}`;
    }
    case "monument_declined":
      return "decline";
    case "treasure_taken":
      return `treasure ${first.square}`;
    default:
      return "";
  }
}

/**
 * Notation as shown: its words (commit, swap, pass…) in the page's language, its
 * symbols (rF4, KG5, xH7, T-) as they are. The text box takes the notation itself.
 * @param {string} text
 */
export function shownNotation(text) {
  return text.replace(/^(commit|swap|pass|war|monument|decline|treasure)\b/, (w) => t(`note.${w}`));
}

/**
 * A suggested action (a hint) in the move log's words, as if `who` had made it; other
 * actions as their notation is shown.
 * @param {string} text
 * @param {string} who
 */
export function actionWords(text, who) {
  const names = { name: () => who, perspective: null };
  const war = asColour(LETTER_COLOUR_OF[/^war ([rbgk])$/.exec(text)?.[1] ?? ""] ?? "");
  if (war) return t("note.war_first", { leaders: t(`leaders.${leaderOfColour(war)}`) });
  const m = /^([rbgkPFTKx])([A-P](?:1[01]|[1-9]))$/.exec(text);
  const [letter, sq] = [m?.[1] ?? "", m?.[2] ?? ""];
  /** @type {GameEvent|null} */
  const e = !m ? null : letter === "x" ? { kind: "catastrophe", seat: 0, square: sq }
    : /[rbgk]/.test(letter) ? { kind: "tile_placed", seat: 0, colour: asColour(LETTER_COLOUR_OF[letter] ?? "") ?? "", square: sq }
    : { kind: "leader_placed", seat: 0, leader: LETTER_LEADER_OF[letter] ?? "", square: sq };
  return (e && describe(e, names)) ?? shownNotation(text);
}

/**
 * Squares a step changed, for a quiet highlight of the last move.
 * @param {GameEvent[]} events
 */
export function touched(events) {
  const out = new Set();
  for (const e of events) {
    if (["tile_placed", "leader_placed", "leader_moved", "catastrophe", "unification"].includes(e.kind) && e.square) {
      out.add(String(e.square));
    }
  }
  return out;
}

/**
 * The log's entry for one step: its lines in words, the points scored, the notation.
 * @param {Step} step
 * @param {Names} n
 * @param {boolean} undone
 */
export function stepEntry(step, n, undone) {
  const lines = [];
  const scores = [];
  const turn = step.events.find((e) => e.kind === "turn_started");
  for (const e of step.events) {
    if (e.kind === "scored") {
      const c = asColour(String(e.colour));
      scores.push(h("span", { class: `score ${e.colour}` },
        c ? tileIcon(c, 14) : null, t("log.scored", { n: e.points, colour: colourWord(e.colour), who: n.name(e.seat) })));
      continue;
    }
    const text = describe(e, n);
    if (text) lines.push(h("div", { class: `line ${e.kind}` }, text));
  }
  const note = step.kind === "undo" ? "" : shownNotation(notation(step.events));
  return stepItems(step, undone, { lines, scores, note, turn, name: n.name });
}
