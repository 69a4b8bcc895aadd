// The replay viewer (/replay/{id}) for ended games: every step's views and events
// from GET /api/games/{id}/replay/{n}, stepped with buttons or arrow keys; the
// record (GET …/record) for download and for the list of moves.

import { boardMaps, call } from "./api.js";
import { byId, fill, h } from "./dom.js";
import { langSwitch, onLang, refusal, t } from "./i18n.js";
import { ServerError } from "./net.js";
import { BoardDrawing } from "./board/draw.js";
import { COLOURS, LEADERS, LEADER_COLOUR, dynastyOf } from "./board/geometry.js";
import { scoringPanel } from "./board/scoring.js";
import { leaderIcon, tileIcon } from "./board/symbols.js";
import { shownNotation, stepEntry, touched } from "./board/words.js";

const app = byId("app");
const gameId = /^\/replay\/([A-Za-z0-9_-]{1,32})\/?$/.exec(location.pathname)?.[1] ?? "";
/** @type {Map<number, Promise<any>>} */
const cache = new Map();
let step = 0;
let steps = 0;
/** @type {any} */
let record = null;
/** @type {any} */
let current = null;
/** @type {BoardDrawing|null} */
let drawing = null;
/** @type {any} */
let maps = null;

/** @param {number} n */
function fetchStep(n) {
  let p = cache.get(n);
  if (!p) {
    p = call(`/api/games/${gameId}/replay/${n}`);
    cache.set(n, p);
    p.catch(() => cache.delete(n));
  }
  return p;
}

/** @param {number} seat */
function name(seat) {
  const meta = current?.game?.seats?.[seat];
  if (meta?.kind === "bot") {
    return t("table.bot_name", { dynasty: t(`dynasty.${dynastyOf(seat)}`), level: t(`level.${meta.level ?? "beginner"}`) });
  }
  const n = meta?.name ?? record?.seats?.[seat];
  return !n || /^Player \d$/.test(n) ? t("player.default", { n: seat + 1 }) : n;
}

/** @param {number} n */
async function go(n) {
  n = Math.max(0, Math.min(steps || n, n));
  step = n;
  try {
    current = await fetchStep(n);
  } catch (e) {
    fatal(e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e));
    return;
  }
  if (step !== n) return;
  steps = current.steps;
  render();
  if (n + 1 <= steps) void fetchStep(n + 1);
  if (n > 0) void fetchStep(n - 1);
}

/** @param {string} message */
function fatal(message) {
  fill(app, h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch()),
    h("main", { class: "message" }, h("p", { class: "error", role: "alert" }, message)));
}

function render() {
  if (!current) return;
  const view = current.views.spectator;
  if (!drawing) {
    drawing = new BoardDrawing(view.options?.advanced ? maps.advanced : maps.standard, (sq) => sq);
  }
  drawing.render(view);
  drawing.mark({ last: touched(current.events ?? []) });
  const names = { name, perspective: null };
  const stepView = current.events?.length
    ? stepEntry({ version: step, kind: "action", seat: null, events: current.events }, names, false)
    : [h("li", {}, t("replay.begin"))];
  const button = (/** @type {string} */ label, /** @type {number} */ to, /** @type {string} */ id) =>
    h("button", { type: "button", id, disabled: to < 0 || to > steps || to === step, onclick: () => void go(to) }, label);
  const slider = h("input", {
    type: "range", min: 0, max: steps, value: step, "aria-label": t("replay.step", { n: step, m: steps }),
    oninput: (/** @type {Event} */ e) => void go(Number(/** @type {HTMLInputElement} */ (e.target).value)),
  });
  const hands = h("ol", { class: "replay-hands" }, ...current.views.spectator.seats.map((/** @type {any} */ _s, /** @type {number} */ i) => {
    const own = current.views[String(i)]?.seats?.[i];
    return h("li", {},
      leaderIcon("black", dynastyOf(i), 22), h("span", { class: "seat-name" }, name(i)),
      h("span", { class: "mini-hand" }, ...COLOURS.flatMap((c) => Array.from({ length: own?.hand?.[c] ?? 0 }, () => tileIcon(c, 20, t(`tile.${c}`))))),
      h("span", { class: "off-leaders" }, ...LEADERS.filter((l) => !own?.leaders?.[l]).map((l) => leaderIcon(LEADER_COLOUR[l], dynastyOf(i), 16, t(`leader.${l}`)))),
      h("span", { class: "points" }, ...COLOURS.map((c) => h("span", { class: `pt ${c}` }, tileIcon(c, 14), String(own?.points?.[c] ?? 0)))));
  }));
  const moves = record ? h("ol", { class: "moves" }, ...record.actions.map((/** @type {string} */ a, /** @type {number} */ i) =>
    h("li", {}, h("button", { type: "button", class: `move${i + 1 === step ? " current" : ""}`, onclick: () => void go(i + 1) }, shownNotation(a))))) : null;
  fill(app,
    h("header", { class: "top table-top" },
      h("a", { href: "/", class: "home" }, t("app.title")),
      h("span", { class: "status" }, `${t("replay.title")} · ${t("replay.step", { n: step, m: steps })}`),
      langSwitch()),
    h("main", { class: "table-layout" },
      h("section", { class: "board-area" }, h("div", { class: "board-wrap" }, drawing.svg)),
      h("aside", { class: "side" },
        h("section", { class: "panel replay-controls" },
          h("div", { class: "row" },
            button(`⏮ ${t("replay.start")}`, 0, "first"), button(`◀ ${t("replay.back")}`, step - 1, "prev"),
            button(`${t("replay.forward")} ▶`, step + 1, "next"), button(`${t("replay.end")} ⏭`, steps, "last")),
          slider,
          h("ol", { class: "log" }, ...stepView),
          h("button", { type: "button", onclick: download }, t("replay.download"))),
        h("section", { class: "panel" }, h("h2", {}, t("replay.hands")), hands),
        step === steps && view.outcome ? scoringPanel(view.outcome, name) : null,
        moves ? h("section", { class: "panel" }, moves) : null)));
  document.title = `${t("replay.title")} · ${t("app.title")}`;
}

async function download() {
  try {
    const doc = record ?? (await call(`/api/games/${gameId}/record`));
    const blob = new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `euphrates-${gameId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) {
    fatal(e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e));
  }
}

document.addEventListener("keydown", (e) => {
  if (record?.game === "cards" || /** @type {HTMLElement} */ (e.target).closest("input, textarea, select")) return;
  if (e.key === "ArrowLeft") void go(step - 1);
  else if (e.key === "ArrowRight") void go(step + 1);
  else if (e.key === "Home") void go(0);
  else if (e.key === "End") void go(steps);
});

async function start() {
  try {
    record = await call(`/api/games/${gameId}/record`);
    if (record.game === "cards") {
      await (await import("./cards/replay.js")).startReplay(app, gameId, record);
      return;
    }
    maps = await boardMaps();
  } catch (e) {
    fatal(e instanceof ServerError && e.code === "record_unavailable" ? t("replay.unavailable")
      : e instanceof ServerError ? refusal(e.code, e.message, e.ruling) : String(e));
    return;
  }
  const wanted = Number(new URLSearchParams(location.search).get("step") ?? NaN);
  steps = record.actions.length;
  await go(Number.isInteger(wanted) ? wanted : 0);
}

onLang(render);
void start();
