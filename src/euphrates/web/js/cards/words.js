// The card game's move log in words, built from the events a client may see (never
// from another seat's action text): a face-down bridge is "a face-down bridge between
// 3 and 4" until it is turned up; drawn cards and a bridge's colour only for the seat
// that may see them.

import { h } from "../shared/dom.js";
import { loadWords, t } from "../shared/i18n.js";
import { stepItems } from "../shared/logentry.js";
import { CARD_LETTER, LEADER_LETTER, colourOf, leaderOf, parseSpot, shipCode } from "./model.js";
import { cardIcon } from "./pictures.js";

// The words of the log, the decisions and the scoring, before anything is drawn.
await loadWords("cards");

/** @typedef {import("../shared/types.js").GameEvent} GameEvent */
/** @typedef {import("../shared/types.js").Step} Step */

/**
 * How the card game names itself, its bots, its dynasties and its decisions: on its
 * table, in the invitation and in its replay.
 * @type {import("../shared/seating.js").Words}
 */
export const WORDS = {
  title: "cards.title", bot: "cards.bot_name", dynasty: "cards.dynasty.",
  coverHint: "cards.cover_hint", reveal: "cards.reveal", typeHint: "cards.type_hint", what: "cards.what.",
};

/**
 * @typedef {object} Names
 * @property {(seat: number) => string} name a seat's name as shown
 * @property {number|null} perspective whose private events may be shown
 * @property {boolean} [everything] show every seat's private events (the replay of an ended game)
 * @property {(version: number) => string|null} [declined] the decision a step without
 *   events of its own answered with "no" (known for steps seen live)
 */

/**
 * A spot in words: "column 3, row 2", "the head of column 3", "bridge 3–4".
 * @param {string} spot
 */
export function spotWords(spot) {
  const p = parseSpot(spot);
  if (!p) return spot;
  if (p.kind === "head") return t("cards.spot.head", { col: p.col + 1 });
  if (p.kind === "bridge") return t("cards.spot.bridge", { gap: `${p.gap + 1} – ${p.gap + 2}` });
  return t("cards.spot.card", { col: p.col + 1, row: p.row });
}

/** @param {string} gap "3-4" */
function gapWords(gap) {
  const [a, b] = gap.split("-");
  return { a: a ?? "?", b: b ?? "?" };
}

/** @param {unknown} card a letter or name */
function cardWords(card) {
  if (card === "t") return t("cards.treasure_card");
  const c = colourOf(card);
  return c ? t(`cards.card_a.${c}`) : String(card);
}

/**
 * Cards as words, grouped: "2 red, 1 green".
 * @param {string} letters
 */
function cardList(letters) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const ch of letters) counts[ch] = (counts[ch] ?? 0) + 1;
  return Object.entries(counts).map(([ch, n]) => {
    const c = colourOf(ch);
    return `${n} ${c ? t(`colour.${c}`) : ch}`;
  }).join(", ");
}

/**
 * @param {unknown} x
 * @param {string} form "leader" or "leader_acc"
 */
function leaderWords(x, form) {
  const l = leaderOf(x);
  return l ? t(`${form}.${l}`) : String(x);
}

/**
 * One event in words, or null for events shown elsewhere (points join their line).
 * @param {GameEvent} e
 * @param {Names} n
 * @returns {string|null}
 */
function describe(e, n) {
  const who = typeof e.seat === "number" ? n.name(e.seat) : "";
  switch (e.kind) {
    case "turn":
    case "point":
      return null;
    case "card":
      return t("cards.log.card", { who, card: cardWords(e.card), col: e.column });
    case "bridge":
      return t("cards.log.bridge", { who, ...gapWords(String(e.gap)) });
    case "bridge_colour":
      if (n.everything) return t("cards.log.bridge_is", { card: cardWords(e.card) });
      return e.audience === n.perspective ? t("cards.log.bridge_colour", { card: cardWords(e.card) }) : null;
    case "bridge_up":
      return t("cards.log.bridge_up", { ...gapWords(String(e.gap)), card: cardWords(e.card) });
    case "leader":
      return e.source
        ? t("cards.log.leader_moved", { who, leader: leaderWords(e.leader, "leader_acc"), from: spotWords(String(e.source)), to: spotWords(String(e.to)) })
        : t("cards.log.leader_placed", { who, leader: leaderWords(e.leader, "leader_acc"), to: spotWords(String(e.to)) });
    case "leader_returns":
      return t("cards.log.leader_returns", { who, leader: leaderWords(e.leader, "leader_nom") });
    case "revolt":
      return t("cards.log.revolt", { leaders: leaderWords(e.leader, "cards.of"), a: n.name(e.attacker), d: n.name(e.defender) });
    case "war": {
      const c = colourOf(e.colour);
      const l = c ? leaderOf(c) : null;
      return t("cards.log.war", {
        leaders: l ? t(`cards.of.${l}`) : String(e.colour), a: n.name(e.attacker), d: n.name(e.defender),
        as: e.strength?.[0] ?? 0, ds: e.strength?.[1] ?? 0,
      });
    }
    case "commit": {
      const c = colourOf(e.colour);
      return t("cards.log.commit", { who, n: e.count, colour: c ? t(`colour.${c}`) : "" });
    }
    case "revolt_result":
    case "war_result": {
      // The winner's total first: a tie goes to the defender, so it is never the lower.
      const [a, d] = [Number(e.strength?.[0] ?? 0), Number(e.strength?.[1] ?? 0)];
      return t(`cards.log.${e.kind}`, { who: n.name(e.winner), at: Math.max(a, d), dt: Math.min(a, d) });
    }
    case "exchange":
      return t("cards.log.exchange", { who, col: e.column });
    case "exchange_none":
      return t("cards.log.exchange_none", { who });
    case "point_declined": {
      const c = colourOf(e.colour);
      return t("cards.log.point_declined", { who, colour: c ? t(`colour.${c}`) : String(e.colour) });
    }
    case "ship_declined":
      return t("cards.log.ship_declined", { who, col: e.column });
    case "ship": {
      const code = shipCode(String(e.ship));
      return t("cards.log.ship", { who, ship: t(`cards.ship.${code}`), col: e.column });
    }
    case "catastrophe":
      return t("cards.log.catastrophe", { who, spot: spotWords(String(e.spot)), card: cardWords(e.card) });
    case "pass":
      return t("cards.log.pass", { who });
    case "draw":
      return n.everything || e.audience === n.perspective ? t("cards.log.draw", { who, cards: cardList(String(e.cards ?? "")) }) : null;
    case "refill": {
      const counts = /** @type {number[]} */ (e.counts ?? []);
      const parts = counts.map((k, s) => (k ? t("cards.log.draws", { who: n.name(s), n: k }) : null)).filter((x) => x !== null);
      return parts.length ? t("cards.log.refill", { list: parts.join(", "), n: e.deck ?? 0 }) : null;
    }
    case "game_over":
      return t(`cards.log.over.${["deck", "treasures", "stalled"].includes(String(e.reason)) ? e.reason : "other"}`);
    case "undo":
      return t("log.undo", { who });
    default:
      return t("log.other", { kind: e.kind });
  }
}

/** Events that say what a step's action was. */
const ACTION_EVENTS = new Set(["card", "bridge", "leader", "catastrophe", "pass", "commit", "war", "point", "point_declined", "exchange", "exchange_none", "ship", "ship_declined", "leader_returns"]);

/**
 * The public notation of a step, from its events (docs/cards.md): another seat's
 * face-down bridge shows as `?3-4`.
 * @param {GameEvent[]} events
 * @param {number|null} perspective
 * @param {string|null} declined the decision kind a step without events of its own answered
 * @param {boolean} [everything] every private event may be shown (an ended game's replay)
 */
function notation(events, perspective, declined, everything = false) {
  const first = events.find((e) => ACTION_EVENTS.has(e.kind));
  if (!first) {
    if (declined === "ship") return "decline";
    if (declined === "point" || declined === "ship_point") return "point none";
    return "";
  }
  const letter = (/** @type {unknown} */ x) => {
    const c = colourOf(x);
    return c ? CARD_LETTER[c] : "?";
  };
  switch (first.kind) {
    case "card":
      return `${letter(first.card)}${first.column}`;
    case "bridge": {
      const own = events.find((e) => e.kind === "bridge_colour" && (everything || e.audience === perspective));
      return `${own ? letter(own.card) : "?"}${first.gap}`;
    }
    case "leader": {
      const l = leaderOf(first.leader);
      return `${l ? LEADER_LETTER[l] : "?"}${first.to}`;
    }
    case "catastrophe":
      return `x${first.spot}`;
    case "pass":
      return "pass";
    case "commit":
      return `commit ${first.count}`;
    case "war":
      return `war ${letter(first.colour)}`;
    case "point":
      return first.card === "t" ? "" : `point ${letter(first.card)}`;
    case "exchange":
      return `exchange ${first.column}`;
    case "exchange_none":
      return "exchange none";
    case "ship":
    case "leader_returns": {
      const ship = events.find((e) => e.kind === "ship");
      return ship ? `ship ${shipCode(String(ship.ship))}` : "";
    }
    default:
      return "";
  }
}

/**
 * Notation as shown: its words in the page's language; the text box takes the notation.
 * @param {string} text
 */
export function shownNotation(text) {
  if (text === "point none") return t("cards.note.point_none");
  if (text === "exchange none") return t("cards.note.exchange_none");
  return text.replace(/^(commit|pass|war|point|exchange|ship|decline)\b/, (w) => t(`cards.note.${w}`));
}

/**
 * A suggested action (a hint) in the move log's words, as if `who` had made it; other
 * actions as their notation is shown.
 * @param {string} text
 * @param {string} who
 */
export function actionWords(text, who) {
  const names = { name: () => who, perspective: null, everything: false };
  const war = colourOf(/^war ([rbgk])$/.exec(text)?.[1] ?? "");
  if (war) return t("cards.note.war_first", { leaders: t(`cards.of.${leaderOf(war) ?? "priest"}`) });
  let m = /^([rbgk])([1-8])$/.exec(text);
  if (m) return describe({ kind: "card", seat: 0, card: m[1], column: Number(m[2]) }, names) ?? text;
  m = /^([rbgk])([1-7]-[2-8])$/.exec(text);
  if (m) return describe({ kind: "bridge", seat: 0, gap: m[2] }, names) ?? text;
  m = /^([PFTK])([1-8]\.[0-8]|[1-7]-[2-8])$/.exec(text);
  if (m) return describe({ kind: "leader", seat: 0, leader: m[1], to: m[2] }, names) ?? text;
  return shownNotation(text);
}

/**
 * Spots a step changed, for a quiet highlight of the last move.
 * @param {GameEvent[]} events
 */
export function touched(events) {
  const out = new Set();
  for (const e of events) {
    if (e.kind === "leader" && e.to) out.add(String(e.to));
    if (e.kind === "bridge" || e.kind === "bridge_up") out.add(String(e.gap));
    if (e.kind === "card" && typeof e.column === "number") out.add(`card:${e.column}`);
    if (e.kind === "ship" && typeof e.column === "number") out.add(`card:${e.column}`);
    if (e.kind === "exchange" && typeof e.column === "number") out.add(`${e.column}.0`);
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
  /** @type {Map<string, {seat: number, card: string, count: number}>} */
  const points = new Map();
  for (const e of step.events) {
    if (e.kind === "point") {
      const key = `${e.seat}:${e.card}`;
      const p = points.get(key) ?? { seat: Number(e.seat), card: String(e.card), count: 0 };
      p.count += 1;
      points.set(key, p);
      continue;
    }
    const text = describe(e, n);
    if (text) lines.push(h("div", { class: `line ev-${e.kind}` }, text));
  }
  const declined = step.kind === "action" && step.seat !== null && !step.events.some((e) => ACTION_EVENTS.has(e.kind))
    ? n.declined?.(step.version) ?? "any" : null;
  if (declined) {
    const key = ["point", "ship_point", "ship"].includes(declined) ? declined : "any";
    lines.unshift(h("div", { class: "line declined" }, t(`cards.log.declined.${key}`, { who: n.name(/** @type {number} */ (step.seat)) })));
  }
  const scores = [...points.values()].map((p) => {
    const c = colourOf(p.card);
    return h("span", { class: `score ${c ?? "treasure"}` },
      cardIcon(c ? CARD_LETTER[c] : "t", 11),
      t("cards.log.points", { n: p.count, what: c ? t(`colour.${c}`) : t("cards.treasure_short"), who: n.name(p.seat) }));
  });
  const note = step.kind === "undo" ? "" : shownNotation(notation(step.events, n.perspective, declined === "any" ? null : declined, n.everything));
  const turn = step.events.find((e) => e.kind === "turn");
  return stepItems(step, undone, { lines, scores, note, turn, name: n.name });
}
