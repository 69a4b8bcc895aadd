// Following the game between one's own turns: what changed since the seat shown last
// played (outlined on the table, every step of it, not only the last), a button that
// plays those steps again on the table, and the signs that it is one's turn — the tab's
// title and icon, a short tone (off until asked for) and a notification while the tab
// is hidden (asked for only when the player turns it on). Everything here comes from
// the steps the connection received: the events each audience may see.

import { fill, h } from "./dom.js";
import { currentLang, t } from "./i18n.js";
import { COLOURS } from "./pieces.js";
import { tileIcon } from "./symbols.js";

/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./types.js").GameEvent} GameEvent */

const SOUND_KEY = "euphrates.sound";
const NOTIFY_KEY = "euphrates.notify";
/** How long each step of a replayed turn stays on the table, in ms. */
export const REPLAY_STEP_MS = 900;
/** The mark before the tab's title while it is one's turn. */
export const YOUR_TURN_MARK = "● ";

/** @param {GameEvent} e the seat whose turn an event starts, if it starts one */
function turnOf(e) {
  return (e.kind === "turn_started" || e.kind === "turn") && typeof e.seat === "number" ? e.seat : null;
}

/**
 * The steps since `me` last played: the steps that stand (not undone), from the end of
 * `me`'s last turn before the current one, to the start of `me`'s current turn (or to
 * now, if another seat is playing). For a spectator (`me` null): the previous turn and
 * the current one.
 * @param {Step[]} history
 * @param {number|null} me
 * @returns {Step[]}
 */
export function stepsSince(history, me) {
  const undone = new Set(history.filter((x) => x.kind === "undo").map((x) => x.events.find((e) => e.kind === "undo")?.undone));
  const steps = history.filter((x) => x.kind !== "undo" && !undone.has(x.version));
  /** Turns as [first step index, seat] (the seat of the first turn is not told: -1). */
  /** @type {[number, number][]} */
  const turns = [[0, -1]];
  steps.forEach((x, i) => {
    for (const e of x.events) {
      const seat = turnOf(e);
      if (seat !== null) turns.push([i + 1, seat]);
    }
  });
  const current = turns.length - 1;
  if (me === null) return steps.slice(turns[Math.max(0, current - 1)]?.[0] ?? 0);
  const mineNow = turns[current]?.[1] === me;
  const end = mineNow ? turns[current]?.[0] ?? steps.length : steps.length;
  // The first step of a turn of the first seat (-1) may be mine: its steps tell.
  let from = 0;
  for (let k = mineNow ? current - 1 : current; k >= 0; k--) {
    const [start, seat] = /** @type {[number, number]} */ (turns[k]);
    const owner = seat >= 0 ? seat : steps[start]?.seat;
    if (owner === me) {
      from = turns[k + 1]?.[0] ?? steps.length;
      break;
    }
  }
  return steps.slice(from, Math.max(from, end));
}

/**
 * The places the steps changed, by the game's `touched`, and those where pieces were
 * taken away (a revolt, a war, a catastrophe: `tiles_removed` on the board).
 * @param {Step[]} steps
 * @param {(events: GameEvent[]) => Set<string>} touched
 */
export function changedPlaces(steps, touched) {
  const out = new Set();
  for (const x of steps) {
    for (const p of touched(x.events)) out.add(p);
    for (const e of x.events) if (e.kind === "tiles_removed") for (const sq of e.squares ?? []) out.add(String(sq));
  }
  return out;
}

/**
 * The public counts beside the bag or the deck: per colour, the pieces not yet seen in
 * the open (the view's `not_seen`, the same for everyone).
 * @param {Record<string, number>|undefined} counts
 * @param {string} hint the text key saying where the rest may be
 */
export function notSeen(counts, hint) {
  if (!counts) return null;
  return h("span", { class: "not-seen", title: t(hint), "aria-label": t(hint) },
    ...COLOURS.map((c) => h("span", {
      class: `not-seen-n ${c}`, "data-colour": c, title: t("follow.unseen_n", { colour: t(`colour.${c}`), n: counts[c] ?? 0 }),
    }, tileIcon(c, 14), String(counts[c] ?? 0))));
}

/** A short rising tone, made on the spot (no sound file). */
function chime() {
  const Ctx = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
  if (!Ctx) return;
  const ctx = new Ctx();
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "sine";
  osc.frequency.setValueAtTime(660, ctx.currentTime);
  osc.frequency.linearRampToValueAtTime(880, ctx.currentTime + 0.12);
  gain.gain.setValueAtTime(0.0001, ctx.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.3);
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + 0.32);
  osc.addEventListener("ended", () => void ctx.close());
}

/** @param {string} key */
function stored(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

/**
 * @param {string} key
 * @param {boolean} on
 */
function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch {
    /* a private window may refuse; the choice lasts the page */
  }
}

/** The icon of the page with a dot for "your turn", drawn once. */
function turnIcon() {
  const svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='6' fill='%237a5200'/>"
    + "<path d='M16 5l11 11-11 11L5 16z' fill='%23f2c230'/><circle cx='25' cy='7' r='6.5' fill='%23c0432f' stroke='%23fff' stroke-width='2'/></svg>";
  return `data:image/svg+xml,${svg}`;
}

/**
 * What a table tells the follow panel.
 * @typedef {object} FollowHost
 * @property {() => number|null} perspective the seat shown
 * @property {() => boolean} myTurn whether the seat shown decides now
 * @property {(events: GameEvent[]) => Set<string>} touched the game's places an event list changed
 * @property {(marks: Set<string>|null, caption: Node|null) => void} showReplay draw one replayed step's places (null: done)
 * @property {(step: Step) => Node[]} entry the step's words in the log
 * @property {() => string} title the game's name
 */

export class Follow {
  /**
   * @param {import("./net.js").Connection} conn
   * @param {FollowHost} host
   */
  constructor(conn, host) {
    this.conn = conn;
    this.host = host;
    this.sound = stored(SOUND_KEY);
    this.notify = stored(NOTIFY_KEY) && typeof Notification !== "undefined" && Notification.permission === "granted";
    this.wasMine = false;
    /** How many times the tone played and notifications were shown (read by the tests). */
    this.chimes = 0;
    this.notices = 0;
    /** @type {number} the timer of a replay running */
    this.timer = 0;
    this.replaying = -1;
    this.denied = false;
    this.panelKey = "";
    this.element = h("section", { class: "panel follow" });
    const icon = /** @type {HTMLLinkElement|null} */ (document.querySelector("link[rel=icon]"));
    this.icon = icon;
    this.plainIcon = icon?.href ?? "";
  }

  /** The steps since the seat shown last played. */
  since() {
    return stepsSince(this.conn.history, this.host.perspective());
  }

  /** The places those steps changed: the table outlines them. */
  places() {
    return changedPlaces(this.since(), this.host.touched);
  }

  /** Draw the panel, and give the signs of one's turn when it has just come. */
  paint() {
    const mine = this.host.myTurn();
    if (mine && !this.wasMine) this.yourTurn();
    this.wasMine = mine;
    if (mine && !document.title.startsWith(YOUR_TURN_MARK)) document.title = `${YOUR_TURN_MARK}${document.title}`;
    // The icon is set only when it changes: a new address is a new load.
    const icon = mine ? turnIcon() : this.plainIcon;
    if (this.icon && this.icon.href !== icon) this.icon.href = icon;
    document.body.dataset.yourTurn = mine ? "1" : "0";
    if (this.replaying < 0) this.panel();
  }

  yourTurn() {
    if (this.sound) {
      this.chimes += 1;
      document.body.dataset.chimes = String(this.chimes);
      try {
        chime();
      } catch {
        /* no audio here: the title and the icon still say it */
      }
    }
    if (this.notify && document.hidden && typeof Notification !== "undefined" && Notification.permission === "granted") {
      this.notices += 1;
      document.body.dataset.notices = String(this.notices);
      const n = new Notification(t("follow.notify_title"), { body: t("follow.notify_body", { game: this.host.title() }), tag: "euphrates-turn" });
      n.addEventListener("click", () => { window.focus(); n.close(); });
    }
  }

  panel() {
    const steps = this.since();
    const key = `${currentLang()}:${steps.length}:${this.host.perspective()}:${this.sound}:${this.notify}:${this.denied}`;
    if (key === this.panelKey) return;
    this.panelKey = key;
    const toggle = (/** @type {string} */ id, /** @type {string} */ label, /** @type {boolean} */ on, /** @type {(on: boolean) => void} */ set) =>
      h("label", { class: "toggle" }, h("input", {
        type: "checkbox", id, checked: on, onchange: (/** @type {Event} */ e) => set(/** @type {HTMLInputElement} */ (e.target).checked),
      }), label);
    const held = this.host.perspective() !== null;
    // Nothing since the seat's last turn (or no turn yet): no count of nothing, no button
    // that can do nothing.
    fill(this.element,
      h("p", { class: "since", id: "since" }, steps.length ? t("follow.since_n", { n: steps.length }) : t("follow.since_none")),
      steps.length ? h("button", { type: "button", id: "replay-turn", onclick: () => this.replay() }, t("follow.replay")) : null,
      held ? toggle("sound-toggle", t("follow.sound"), this.sound, (on) => { this.sound = on; store(SOUND_KEY, on); }) : null,
      held && typeof Notification !== "undefined" ? toggle("notify-toggle", t("follow.notify"), this.notify, (on) => void this.setNotify(on)) : null,
      this.denied ? h("p", { class: "hint" }, t("follow.notify_denied")) : null);
  }

  /** @param {boolean} on */
  async setNotify(on) {
    this.denied = false;
    if (on && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      on = answer === "granted";
      this.denied = !on;
    }
    this.notify = on;
    store(NOTIFY_KEY, on);
    this.panel();
  }

  /** Play the steps since one's last turn again on the table, one after the other. */
  replay() {
    const steps = this.since();
    if (!steps.length) return;
    clearTimeout(this.timer);
    const show = (/** @type {number} */ i) => {
      const step = steps[i];
      if (!step) {
        this.replaying = -1;
        this.panelKey = "";
        this.host.showReplay(null, null);
        this.panel();
        return;
      }
      this.replaying = i;
      fill(this.element,
        h("p", { class: "replaying", id: "replaying", "aria-live": "polite" }, t("follow.replaying", { n: i + 1, m: steps.length })),
        h("ol", { class: "log replay-step" }, ...this.host.entry(step)),
        h("button", { type: "button", id: "replay-stop", onclick: () => { clearTimeout(this.timer); show(steps.length); } }, t("follow.stop")));
      this.host.showReplay(changedPlaces([step], this.host.touched), null);
      this.timer = window.setTimeout(() => show(i + 1), REPLAY_STEP_MS);
    };
    show(0);
  }
}
