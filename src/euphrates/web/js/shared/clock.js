// Each player's clock at the table. The server alone keeps time: every welcome, update
// and game message carries its figures (each seat's time left at the server's `now`,
// whose clock runs and its deadline); between them the running clock ticks down here
// from the deadline, corrected by how far this computer's clock is from the server's.
// A countdown elsewhere on the page (`data-count-to`, a forfeit's) ticks with them.
// Turn-based, a seat's clock says how many deadlines it missed in a row and when its
// player is on vacation (docs/fair-play.md).

import { call } from "./api.js";
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { readFragment } from "./mygames.js";

/** @typedef {import("./types.js").ClockMeta} ClockMeta */

const LEVELS = ["beginner", "intermediate", "strong", "expert"];
/** Server time minus this computer's, in milliseconds (from the last figures seen). */
let skew = 0;
let ticking = false;

/**
 * Time left as people read it: "4:05", "1:02:03", or days and hours on a slow clock.
 * @param {number} ms
 */
export function formatLeft(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const min = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  if (days) return t("clock.days", { d: days, h: hours });
  if (hours) return `${hours}:${String(min).padStart(2, "0")}:${sec}`;
  return `${min}:${sec}`;
}

function tick() {
  const now = Date.now() + skew;
  for (const el of document.querySelectorAll(".clock[data-deadline]")) {
    const left = Number(/** @type {HTMLElement} */ (el).dataset.deadline) - now;
    const text = el.querySelector(".clock-left");
    if (text) text.textContent = formatLeft(left);
    el.classList.toggle("low", left < 10000);
  }
  for (const el of document.querySelectorAll("[data-count-to]")) {
    el.textContent = formatLeft(Number(/** @type {HTMLElement} */ (el).dataset.countTo) - now);
  }
}

/**
 * Tick from the server's figures in `clock` (its `now`): the running clocks and every
 * countdown on the page.
 * @param {ClockMeta} clock
 */
export function startTicking(clock) {
  skew = Date.parse(clock.now) - Date.now();
  if (!ticking) {
    ticking = true;
    setInterval(tick, 250);
  }
}

/**
 * A countdown to `iso` (the server's time), ticking; a timer, whose every tick a
 * screen reader does not read out (it is inside a notice that is announced once).
 * @param {string} iso
 */
export function countdown(iso) {
  const to = Date.parse(iso);
  return h("span", { class: "countdown", role: "timer", "aria-live": "off", "data-count-to": String(to) }, formatLeft(to - Date.now() - skew));
}

/**
 * The button by which a seat's own player takes it back from the bot standing in.
 * @param {number} seat
 */
export function backButton(seat) {
  return h("button", { type: "button", class: "clock-back", onclick: () => act(`seats/${seat}/back`, undefined) }, t("clock.back"));
}

/**
 * A seat's clock, and what its players may do about it: another seated player lets a
 * bot play a seat that ran out of time (real-time); its own player takes it back.
 * @param {ClockMeta|null|undefined} clock
 * @param {number} seat
 * @param {number[]} held seats this screen holds
 */
export function seatClock(clock, seat, held) {
  if (!clock) return null;
  startTicking(clock);
  const running = clock.seat === seat && clock.deadline !== null;
  const out = Boolean(clock.out_of_time?.[seat]);
  const standin = clock.standin?.[seat] ?? null;
  const left = running && clock.deadline ? Date.parse(clock.deadline) - Date.now() - skew : clock.remaining_ms?.[seat] ?? 0;
  const parts = [h("span", { class: "clock-left" }, formatLeft(left))];
  const missed = clock.missed?.[seat] ?? 0;
  if (standin) parts.push(h("span", { class: "clock-note" }, t("clock.bot", { level: t(`level.${standin}`) })));
  else if (out) parts.push(h("span", { class: "clock-note" }, t("clock.out")));
  else if (clock.paused?.[seat]) parts.push(h("span", { class: "clock-note paused" }, t("clock.paused")));
  if (missed) parts.push(h("span", { class: "clock-note missed" }, t("clock.missed", { n: missed, m: clock.misses ?? 2 })));
  if (out && !standin && held.some((s) => s !== seat)) {
    const level = h("select", { "aria-label": t("clock.level"), class: "clock-level" },
      ...LEVELS.map((l) => h("option", { value: l, selected: l === "intermediate" }, t(`level.${l}`))));
    parts.push(level, h("button", {
      type: "button", class: "clock-standin",
      onclick: () => act(`seats/${seat}/standin`, { level: /** @type {HTMLSelectElement} */ (level).value }),
    }, t("clock.standin")));
  }
  if (standin && held.includes(seat) && clock.mode === "realtime") parts.push(backButton(seat));
  return h("span", {
    class: `clock${running ? " running" : ""}${out ? " out" : ""}`,
    "data-seat": seat, title: t("clock.label"),
    ...(running && clock.deadline ? { "data-deadline": String(Date.parse(clock.deadline)) } : {}),
  }, ...parts);
}

/**
 * @param {string} path under the game's
 * @param {any} body
 */
async function act(path, body) {
  const id = location.pathname.split("/")[2] ?? "";
  const { seats } = readFragment(location.hash);
  try {
    await call(`/api/games/${id}/${path}`, { method: "POST", body, tokens: seats });
  } catch (e) {
    window.alert(errorText(e));
  }
}
