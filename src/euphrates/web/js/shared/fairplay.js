// What a table says of fair play (docs/fair-play.md) while it is played: the notes in
// the move log (a player resigned, left, was forfeited, went on vacation; a rated game
// aborted), and above the table the notices of a seat about to be lost — a real-time
// seat out of time whose grace runs out (with its countdown, urgent for its own player),
// a turn-based seat's missed deadlines, a player away on vacation.

import { backButton, countdown, startTicking } from "./clock.js";
import { fill, h } from "./dom.js";
import { currentLang, rich, t } from "./i18n.js";

/** @typedef {import("./types.js").GameMeta} GameMeta */
/** @typedef {import("./types.js").Note} Note */

/** The notes of a seat left for good: in a duel the game ends there, the other wins. */
const LEAVING = new Set(["resigned", "left", "forfeited"]);

/**
 * A note in words.
 * @param {Note} note
 * @param {GameMeta|null|undefined} game
 * @param {(seat: number) => string} name
 */
export function noteText(note, game, name) {
  const who = note.seat === null ? "" : name(note.seat);
  const by = note.by === undefined ? "" : name(note.by);
  const level = note.level ? t(`level.${note.level}`) : "";
  let key = `note.${note.kind}`;
  let other = "";
  if (LEAVING.has(note.kind) && game?.players === 2 && note.seat !== null) {
    key += "_duel";
    other = name(1 - note.seat);
  } else if (note.kind === "aborted" && note.seat === null) {
    key = "note.aborted_host";
  }
  return t(key, { who, by, level, other });
}

/**
 * A date and time as this page's language writes it.
 * @param {string} iso
 */
export function when(iso) {
  return new Date(iso).toLocaleString(currentLang(), { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" });
}

/**
 * The notices above a table being played, one per seat concerned: its seat to be
 * forfeited (real time), its deadlines missed (turn-based), its player on vacation.
 * The seat's own player is told more urgently, and how to keep the seat. Drawn again
 * only when what they say changes (the countdown ticks by itself), so that an alert
 * is announced once.
 */
export class ClockNotices {
  constructor() {
    this.key = "";
    /** @type {Node|null} the list drawn last */
    this.shown = null;
  }

  /**
   * @param {HTMLElement} slot
   * @param {GameMeta} game
   * @param {number[]} held the seats this screen holds
   * @param {(seat: number) => string} name
   */
  paint(slot, game, held, name) {
    const c = game.clock;
    const key = JSON.stringify([currentLang(), game.status, held, c?.forfeit, c?.missed, c?.paused, c?.standin,
      game.seats.map((s) => `${s.kind}:${name(s.seat)}`)]);
    if (key === this.key && slot.firstChild === this.shown) return;
    this.key = key;
    this.shown = notices(game, held, name);
    fill(slot, this.shown);
  }
}

/**
 * @param {GameMeta} game
 * @param {number[]} held
 * @param {(seat: number) => string} name
 * @returns {HTMLElement|null}
 */
function notices(game, held, name) {
  const clock = game.clock;
  if (!clock || game.status !== "active") return null;
  startTicking(clock);
  const items = [];
  for (const meta of game.seats) {
    const seat = meta.seat;
    if (meta.kind !== "human") continue;
    const who = name(seat);
    const mine = held.includes(seat);
    const forfeit = clock.forfeit?.[seat];
    const missed = clock.missed?.[seat] ?? 0;
    const paused = clock.paused?.[seat];
    if (forfeit) {
      const key = !mine ? "fair.forfeit" : clock.standin?.[seat] ? "fair.forfeit_you_bot" : "fair.forfeit_you";
      items.push(h("li", { class: `fair-notice forfeit${mine ? " urgent" : ""}`, "data-seat": seat },
        h("span", { role: mine ? "alert" : null }, ...rich(key, { who }, { time: countdown(forfeit) })),
        mine && clock.standin?.[seat] ? backButton(seat) : null));
    }
    if (missed && !forfeit) {
      items.push(h("li", { class: `fair-notice missed${mine ? " urgent" : ""}`, "data-seat": seat },
        t(mine ? "fair.missed_you" : "fair.missed", { who, n: missed, m: clock.misses ?? 2 })));
    }
    if (paused) {
      items.push(h("li", { class: "fair-notice vacation", "data-seat": seat },
        t(mine ? "fair.vacation_you" : "fair.vacation", { who, date: when(paused) })));
    }
  }
  return items.length ? h("ul", { class: "fair-notices", "aria-live": "polite" }, ...items) : null;
}
