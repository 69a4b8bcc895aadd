// The side panels of the board table: the hand and its actions, one panel per
// decision (conflict, war order, monument, treasure), and the seats.

import { h } from "../shared/dom.js";
import { listing, t, tt } from "../shared/i18n.js";
import { commitChooser, conflictSides, decisionSection, passButton, pointing, seatHead, seatsSection } from "../shared/panels.js";
import { COLOURS, LEADERS, LEADER_COLOUR, LEADER_LETTER, TILE_LETTER, dynastyOf, leaderOfColour } from "../shared/pieces.js";
import { monumentColours } from "./draw.js";
import { sortLetters } from "./legal.js";
import { COLOUR_FILL, leaderIcon, tileIcon } from "../shared/symbols.js";

/** @typedef {import("../shared/types.js").BoardView} BoardView */
/** @typedef {import("./legal.js").Legal} Legal */
/** @typedef {import("../shared/pieces.js").Colour} Colour */
/** @typedef {import("../shared/pieces.js").Leader} Leader */

/**
 * @typedef {{kind: "tile", colour: Colour} | {kind: "leader", leader: Leader}
 *   | {kind: "catastrophe"} | {kind: "swap", picks: Colour[]}} Selection
 */

/**
 * What the panels are given: the table's common part (`js/seating.js`) and the legal
 * actions sorted by piece.
 * @typedef {import("../shared/seating.js").SeatUi<BoardView, Selection> & {legal: Legal}} Ui
 */

/**
 * The hand of the seat shown, with its leaders and actions.
 * @param {Ui} ui
 */
export function handPanel(ui) {
  const me = /** @type {number} */ (ui.me);
  const seat = ui.view.seats[me];
  if (!seat) return h("div");
  const act = ui.deciding && ui.view.decision?.kind === "action";
  const swap = ui.sel?.kind === "swap" ? ui.sel : null;
  const tiles = h("div", { class: "hand-tiles", role: "group", "aria-label": t("table.hand") });
  /** @type {Record<string, number>} */
  const picked = {};
  for (const c of swap?.picks ?? []) picked[c] = (picked[c] ?? 0) + 1;
  for (const c of COLOURS) {
    const count = seat.hand?.[c] ?? 0;
    for (let i = 0; i < count; i++) {
      const targets = ui.legal.tiles.get(c);
      const selected = ui.sel?.kind === "tile" && ui.sel.colour === c;
      const inSwap = swap !== null && i < (picked[c] ?? 0);
      const usable = act && (swap !== null || Boolean(targets && targets.size));
      tiles.append(h("button", {
        type: "button", class: `hand-tile ${c}${selected ? " selected" : ""}${inSwap ? " discard" : ""}`,
        "data-colour": c, "aria-pressed": String(selected || inSwap), disabled: !usable,
        title: `${t(`tile.${c}`)} (${t(`colour.${c}`)}) · ${TILE_LETTER[c]}`,
        onclick: () => {
          if (swap) {
            const picks = [...swap.picks];
            const at = i < (picked[c] ?? 0) ? picks.lastIndexOf(c) : -1;
            if (at >= 0) picks.splice(at, 1);
            else picks.push(c);
            ui.select({ kind: "swap", picks });
          } else {
            ui.select(selected ? null : { kind: "tile", colour: c });
          }
        },
      }, tileIcon(c, 40, `${t(`tile.${c}`)}`)));
    }
  }
  const leaders = h("div", { class: "hand-leaders", role: "group", "aria-label": t("table.leaders") });
  for (const l of LEADERS) {
    const at = seat.leaders?.[l] ?? null;
    const targets = ui.legal.leaders.get(l);
    const usable = act && !swap && (Boolean(targets && targets.size) || ui.legal.withdraw.has(l));
    const selected = ui.sel?.kind === "leader" && ui.sel.leader === l;
    leaders.append(h("button", {
      type: "button", class: `hand-leader${selected ? " selected" : ""}${at ? " placed" : ""}`, "data-leader": l,
      disabled: !usable, "aria-pressed": String(selected),
      onclick: () => ui.select(selected ? null : { kind: "leader", leader: l }),
    }, leaderIcon(LEADER_COLOUR[l], dynastyOf(me), 34),
      h("span", { class: "leader-name" }, t(`leader.${l}`)),
      h("span", { class: "leader-where" }, at ? t("table.on", { sq: at }) : t("table.off"))));
  }
  const cats = seat.catastrophes ?? 0;
  const buttons = h("div", { class: "hand-actions" });
  if (swap) {
    const letters = sortLetters(swap.picks.map((c) => TILE_LETTER[c]).join(""));
    const ok = swap.picks.length > 0 && ui.legal.swaps.has(letters);
    buttons.append(
      h("button", { type: "button", class: "primary", disabled: !ok, onclick: () => ui.act(`swap ${letters}`) }, t("table.swap_n", { n: swap.picks.length })),
      h("button", { type: "button", onclick: () => ui.select(null) }, t("table.cancel")));
  } else {
    const catSel = ui.sel?.kind === "catastrophe";
    buttons.append(
      h("button", {
        type: "button", class: `catastrophe-btn${catSel ? " selected" : ""}`, disabled: !act || !ui.legal.catastrophes.size,
        "aria-pressed": String(catSel), onclick: () => ui.select(catSel ? null : { kind: "catastrophe" }),
      }, t("table.catastrophe"), h("span", { class: "count" }, `×${cats}`)),
      h("button", { type: "button", disabled: !act || !ui.legal.swaps.size, onclick: () => ui.select({ kind: "swap", picks: [] }) }, t("table.swap")),
      passButton(ui, act && ui.legal.pass, 2 - Number(ui.view.turn?.actions_done ?? 0)));
    if (ui.sel?.kind === "leader" && ui.legal.withdraw.has(ui.sel.leader)) {
      const l = ui.sel.leader;
      buttons.append(h("button", { type: "button", class: "primary", onclick: () => ui.act(`${LEADER_LETTER[l]}-`) },
        t("table.withdraw", { leader: t(`leader.${l}`) })));
    }
  }
  const hint = !act ? null
    : swap ? t("table.swap_hint")
      : ui.sel ? tt("table.place_hint")
        : t("table.pick_hint");
  return h("section", { class: "panel hand", "aria-labelledby": "hand-title", "data-hand-of": me },
    h("h2", { id: "hand-title" }, t("table.hand_of", { name: ui.name(me) })),
    tiles, leaders, buttons,
    hint ? h("p", { class: "hint" }, hint) : null);
}

/**
 * Who is to decide what, with the public facts of a pending conflict.
 * @param {Ui} ui
 * @param {string[]} borderedFirst bordered treasures this choice's kingdom gave up first,
 *   by themselves (B-30)
 */
export function decisionPanel(ui, borderedFirst) {
  return decisionSection(ui, {
    conflict: conflictBox,
    choosers: {
      commit: boardCommit, war_order: warChooser, monument: monumentChooser,
      treasure: (u) => treasureChooser(u, borderedFirst),
    },
    what: "what.",
    held: (u, colour) => (u.me === null ? 0 : u.view.seats[u.me]?.hand?.[colour] ?? 0),
  });
}

/** @param {Ui} ui */
function conflictBox(ui) {
  const c = /** @type {Record<string, any>} */ (ui.view.decision?.context ?? {});
  const pending = ui.view.pending ?? {};
  const colour = /** @type {Colour} */ (String(c.colour ?? pending.colour ?? "red"));
  const leader = leaderOfColour(colour) ?? "priest";
  const war = (c.conflict ?? (pending.phase === "war" ? "war" : "revolt")) === "war";
  const aCommit = c.attacker_commit ?? pending.attacker_commit ?? null;
  return h("div", { class: `conflict ${colour}`, style: `--conflict:${COLOUR_FILL[colour] ?? "#888"}` },
    h("h2", {}, t(war ? "conflict.war" : "conflict.revolt", { leader: t(`leader.${leader}`) })),
    conflictSides(ui.name, (seat) => leaderIcon(colour, dynastyOf(seat), 30), "conflict.board", {
      attacker: Number(c.attacker ?? pending.attacker),
      defender: Number(c.defender ?? pending.defender),
      aBase: Number(c.attacker_strength ?? pending.attacker_strength ?? 0),
      dBase: Number(c.defender_strength ?? pending.defender_strength ?? 0),
      aCommit: aCommit === null ? null : Number(aCommit),
    }),
    h("p", { class: "hint" }, t("conflict.tie")));
}

/** @param {Ui} ui */
function boardCommit(ui) {
  const c = /** @type {Record<string, any>} */ (ui.view.decision?.context ?? {});
  const commitColour = /** @type {Colour} */ (String(c.commit_colour ?? (c.conflict === "revolt" ? "red" : c.colour ?? "red")));
  const mine = ui.me === null ? 0 : ui.view.seats[ui.me]?.hand?.[commitColour] ?? 0;
  return commitChooser(ui,
    h("p", {}, tileIcon(commitColour, 18), " ", t("conflict.commit_prompt", { tiles: t(`tiles.${commitColour}`), n: mine })));
}

/** @type {typeof import("./wars.js")|null} */
let wars = null;

/** @param {Ui} ui */
function warChooser(ui) {
  if (!wars) void import("./wars.js").then(async (m) => { await m.ready; wars = m; ui.redraw(); });
  return h("div", { class: "choices war-order" },
    h("h2", {}, t("war.title")),
    ...ui.legal.wars.map((c) => {
      const leader = leaderOfColour(c) ?? "priest";
      const owners = (ui.view.seats ?? []).map((s, i) => (s.leaders?.[leader] ? i : -1)).filter((i) => i >= 0);
      const [a, b] = wars?.warSides(ui.view, c) ?? [];
      return h("button", { type: "button", class: `war-choice ${c}`, "data-war": c, onclick: () => ui.act(`war ${TILE_LETTER[c]}`) },
        tileIcon(c, 22), t("war.option", {
          leader: t(`leader.${leader}`), a: ui.name(a?.seat ?? owners[0] ?? 0), b: ui.name(b?.seat ?? owners[1] ?? 0),
        }), a && b ? wars?.warStrength(t(`leader.${leader}`), a.strength, b.strength) : null);
    }));
}

/** @param {Ui} ui */
function monumentChooser(ui) {
  return h("div", { class: "choices monuments" },
    h("h2", {}, t("monument.title")),
    ...ui.legal.monuments.map((m) => {
      const [a, b] = monumentColours(m.code);
      const squares = new Set([m.square]);
      return h("button", {
        type: "button", class: "monument-choice", "data-monument": m.text,
        onclick: () => ui.act(m.text),
        ...pointing(ui, squares),
      }, tileIcon(a, 22), tileIcon(b, 22), t("monument.option", { a: t(`colour.${a}`), b: t(`colour.${b}`), sq: m.square }));
    }),
    ui.legal.decline ? h("button", { type: "button", onclick: () => ui.act("decline") }, t("monument.decline")) : null);
}

/**
 * The treasures to choose from. That bordered treasures go first (B-30) is said only
 * where one went: a real choice is never between a bordered treasure and another.
 * @param {Ui} ui
 * @param {string[]} borderedFirst
 */
function treasureChooser(ui, borderedFirst) {
  const n = borderedFirst.length;
  return h("div", { class: "choices treasures" },
    h("h2", {}, t("treasure.title")),
    h("p", { class: "hint" }, n ? t("treasure.hint_bordered", { list: listing(borderedFirst), n }) : t("treasure.hint")),
    ...ui.legal.treasures.map((tr) => h("button", {
      type: "button", "data-treasure": tr.square, onclick: () => ui.act(tr.text),
      ...pointing(ui, new Set([tr.square])),
    }, t("treasure.take", { sq: tr.square }))));
}

/**
 * The seats: names, dynasties, bots, connection, and what the view shows of each.
 * @param {Ui} ui
 * @param {number[]} held seats this screen holds
 */
export function seatsPanel(ui, held) {
  const open = Boolean(ui.view.options?.open_scores) || ui.view.outcome !== null && ui.view.outcome !== undefined;
  // Nobody is to move once the game ended (a duel left by a player has no engine outcome).
  const decider = ui.game.status === "active" ? ui.view.decision?.seat : undefined;
  const rows = (ui.game.seats ?? []).map((meta) => {
    const i = meta.seat;
    const s = ui.view.seats?.[i];
    const handCount = s ? (typeof s.hand?.count === "number" ? s.hand.count : COLOURS.reduce((a, c) => a + (s.hand?.[c] ?? 0), 0)) : 0;
    const showPoints = s?.points && (open || i === ui.me);
    const off = s ? LEADERS.filter((l) => !s.leaders?.[l]) : [];
    return h("li", { class: `seat${decider === i ? " to-move" : ""}${held.includes(i) ? " held" : ""}`, "data-seat": i },
      seatHead(ui, meta, held, "dynasty."),
      h("div", { class: "seat-body" },
        h("span", { class: "stat" }, t("table.tiles_n", { n: handCount })),
        h("span", { class: "stat" }, t("table.catastrophes", { n: s?.catastrophes ?? 0 })),
        h("span", { class: "stat treasure-count" }, `${t("table.treasures")}: ${s?.treasures ?? 0}`),
        h("span", { class: "off-leaders" }, ...off.map((l) => leaderIcon(LEADER_COLOUR[l], dynastyOf(i), 18, t(`leader.${l}`))))),
      showPoints && s?.points
        ? h("div", { class: "points", "aria-label": t("table.points") },
          ...COLOURS.map((c) => h("span", { class: `pt ${c}` }, tileIcon(c, 16, t(`tile.${c}`)), String(s.points?.[c] ?? 0))))
        : h("div", { class: "points hidden" }, t("table.points_hidden")));
  });
  return seatsSection(rows);
}
