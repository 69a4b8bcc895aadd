// The side panels of the card table: the hand with its leaders, catastrophe and
// pass; one panel per decision (commitment, war order, point, treasure exchange,
// ship, ship point), shown to whoever decides — also a player who is not active.

import { h } from "../shared/dom.js";
import { t, tt } from "../shared/i18n.js";
import { commitChooser, conflictSides, decisionSection, hinting, passButton, pointing, seatHead, seatsSection } from "../shared/panels.js";
import { leaderIcon } from "../shared/symbols.js";
import { dynastyOf } from "../shared/pieces.js";
import {
  CARD_LETTER, COLOURS, LEADERS, LEADER_COLOUR, LEADER_LETTER, colourOf, countCards, faceDownGap,
  inKingdom, kingdomOf, leaderOf, leaderOfColour, spotColumn, strengths,
} from "./model.js";
import { cardIcon } from "./pictures.js";

/** @typedef {import("./model.js").CardsView} CardsView */
/** @typedef {import("./model.js").Colour} Colour */
/** @typedef {import("./model.js").Leader} Leader */
/** @typedef {import("./legal.js").Legal} Legal */

/**
 * @typedef {{kind: "card", colour: Colour} | {kind: "leader", leader: Leader} | {kind: "catastrophe"}} Selection
 */

/**
 * What the panels are given: the table's common part (`js/seating.js`) and the legal
 * actions sorted by piece.
 * @typedef {import("../shared/seating.js").SeatUi<CardsView, Selection> & {legal: Legal}} Ui
 */

/** @param {Colour} c */
const cardName = (c) => `${t(`cards.card.${c}`)} (${t(`colour.${c}`)})`;

/**
 * The hand of the seat shown, its leaders, its catastrophe and the pass.
 * @param {Ui} ui
 */
export function handPanel(ui) {
  const me = /** @type {number} */ (ui.me);
  const view = ui.view;
  const act = ui.deciding && view.decision?.kind === "action";
  const counts = countCards(view.hand);
  const cards = h("div", { class: "hand-cards", role: "group", "aria-label": t("cards.hand") });
  for (const c of COLOURS) {
    for (let i = 0; i < counts[c]; i++) {
      const targets = ui.legal.cards.get(c);
      const selected = ui.sel?.kind === "card" && ui.sel.colour === c && i === 0;
      cards.append(h("button", {
        type: "button", class: `hand-card ${c}${selected ? " selected" : ""}`, "data-colour": c,
        "aria-pressed": String(selected), disabled: !(act && targets && targets.size),
        title: `${cardName(c)} · ${CARD_LETTER[c]}`,
        onclick: () => ui.select(ui.sel?.kind === "card" && ui.sel.colour === c ? null : { kind: "card", colour: c }),
      }, cardIcon(CARD_LETTER[c], 44, cardName(c))));
    }
  }
  if (!cards.firstChild) cards.append(h("p", { class: "hint" }, t("cards.hand_empty")));
  const leaders = h("div", { class: "hand-leaders", role: "group", "aria-label": t("table.leaders") });
  const mine = view.leaders?.[me] ?? {};
  /** @type {Set<string>} */
  const whys = new Set();
  for (const l of LEADERS) {
    const at = mine[LEADER_LETTER[l]] ?? null;
    const targets = ui.legal.leaders.get(l);
    const selected = ui.sel?.kind === "leader" && ui.sel.leader === l;
    const usable = Boolean(act && targets && targets.size);
    const why = usable ? null : leaderWhy(ui, Boolean(at));
    if (why) whys.add(why);
    leaders.append(h("button", {
      type: "button", class: `hand-leader${selected ? " selected" : ""}${at ? " placed" : ""}`, "data-leader": l,
      disabled: !usable, "aria-pressed": String(selected),
      title: `${t(`leader.${l}`)} · ⇧${LEADER_LETTER[l]}${why ? ` — ${why}` : ""}`, "aria-description": why,
      onclick: () => ui.select(selected ? null : { kind: "leader", leader: l }),
    }, leaderIcon(LEADER_COLOUR[l], dynastyOf(me), 34),
    h("span", { class: "leader-name" }, t(`leader.${l}`)),
    h("span", { class: "leader-where" }, at ? t("cards.on", { spot: at }) : t("cards.in_supply"))));
  }
  const catSel = ui.sel?.kind === "catastrophe";
  const hasCat = Boolean(view.catastrophes?.[me]);
  const buttons = h("div", { class: "hand-actions" },
    h("button", {
      type: "button", class: `catastrophe-btn${catSel ? " selected" : ""}`, id: "catastrophe", title: "x",
      disabled: !act || !ui.legal.catastrophes.size, "aria-pressed": String(catSel),
      onclick: () => ui.select(catSel ? null : { kind: "catastrophe" }),
    }, t("cards.catastrophe"), h("span", { class: "count" }, hasCat ? "×1" : "×0")),
    passButton(ui, act && ui.legal.pass, Number(view.actions_left ?? 0)));
  const hint = !act ? null : ui.sel ? tt("cards.place_hint") : t("cards.pick_hint");
  return h("section", { class: "panel hand", "aria-labelledby": "hand-title", "data-hand-of": me },
    h("h2", { id: "hand-title" }, t("cards.hand_of", { name: ui.name(me) }), h("span", { class: "count" }, `${view.hand?.length ?? 0}/8`)),
    cards, leaders,
    whys.size ? h("p", { class: "hint leaders-why" }, [...whys].join(" ")) : null,
    buttons,
    hint ? h("p", { class: "hint" }, hint) : null);
}

/**
 * Why a leader cannot be picked now: another seat's turn or decision, a decision of
 * one's own to answer first, or no card it may go to (C-5). Null once the game is over.
 * @param {Ui} ui
 * @param {boolean} placed the leader stands in the layout
 * @returns {string|null}
 */
function leaderWhy(ui, placed) {
  const d = ui.view.decision;
  if (!d || ui.game.status !== "active") return null; // over (a duel left by a player: no outcome)
  const what = t(`cards.what.${d.kind}`);
  if (!ui.deciding) {
    return d.kind === "action" ? t("cards.why.turn", { name: ui.name(d.seat) }) : t("cards.why.waits", { name: ui.name(d.seat), what });
  }
  if (d.kind !== "action") return t("cards.why.decide", { what });
  return t(placed ? "cards.why.stuck" : "cards.why.nowhere");
}

/**
 * Who decides what; the deciding seat's panel for it.
 * @param {Ui} ui
 */
export function decisionPanel(ui) {
  return decisionSection(ui, {
    conflict: conflictBox,
    choosers: {
      commit: cardsCommit, war_order: warChooser, point: pointChooser, ship_point: pointChooser,
      exchange: exchangeChooser, ship: shipChooser,
    },
    what: "cards.what.",
    dataKind: true,
    held: (u, colour) => countCards(u.view.hand)[colourOf(colour) ?? "red"],
  });
}

/**
 * The leader colour of a pending conflict: a war's colour, or for a revolt the one
 * colour in which the attacker and the defender stand in one kingdom (C-10).
 * @param {CardsView} view
 * @param {Record<string, any>} c the decision's context
 * @returns {{leader: Leader, war: boolean, attacker: number, defender: number}}
 */
export function conflictOf(view, c) {
  const war = c.conflict === "war" || view.pending?.conflict?.type === "war";
  const attacker = Number(c.attacker ?? 0);
  const defender = Number(c.defender ?? 0);
  const byContext = leaderAt(view, c.attacker_leader);
  if (byContext) return { leader: byContext, war, attacker, defender };
  if (war) return { leader: leaderOfColour(colourOf(c.colour) ?? "red"), war, attacker, defender };
  for (const l of LEADERS) {
    const a = view.leaders?.[attacker]?.[LEADER_LETTER[l]];
    const d = view.leaders?.[defender]?.[LEADER_LETTER[l]];
    if (a && d && inKingdom(d, kingdomOf(view.layout, spotColumn(a)))) return { leader: l, war, attacker, defender };
  }
  return { leader: "priest", war, attacker, defender };
}

/**
 * @param {CardsView} view
 * @param {unknown} spot
 * @returns {Leader|null}
 */
function leaderAt(view, spot) {
  if (typeof spot !== "string") return null;
  for (const byLetter of view.leaders ?? []) {
    for (const [key, at] of Object.entries(byLetter ?? {})) if (at === spot) return leaderOf(key);
  }
  return null;
}

/** @param {Ui} ui */
function conflictBox(ui) {
  const c = /** @type {Record<string, any>} */ (ui.view.decision?.context ?? {});
  const { leader, war, attacker, defender } = conflictOf(ui.view, c);
  const colour = LEADER_COLOUR[leader];
  const aCommit = c.attacker_commit ?? null;
  return h("div", { class: `conflict ${colour}`, style: `--conflict:var(--${colour})` },
    h("h2", {}, t(war ? "cards.conflict.war" : "cards.conflict.revolt", { leaders: t(`cards.of.${leader}`) })),
    conflictSides(ui.name, (seat) => leaderIcon(colour, dynastyOf(seat), 30), "cards.conflict.layout", {
      attacker, defender,
      aBase: Number(c.attacker_strength ?? 0),
      dBase: Number(c.defender_strength ?? 0),
      aCommit: aCommit === null ? null : Number(aCommit),
    }),
    h("p", { class: "hint" }, t(war ? "cards.conflict.war_rule" : "cards.conflict.revolt_rule")));
}

/** @param {Ui} ui */
function cardsCommit(ui) {
  const c = /** @type {Record<string, any>} */ (ui.view.decision?.context ?? {});
  const revolt = c.conflict !== "war";
  const colour = colourOf(c.commit_colour) ?? (revolt ? "red" : colourOf(c.colour) ?? "red");
  const held = countCards(ui.view.hand)[colour];
  return commitChooser(ui,
    h("p", {}, cardIcon(CARD_LETTER[colour], 16), " ", t("cards.commit_prompt", { cards: t(`cards.cards.${colour}`), n: held })));
}

/**
 * The owners of the two leaders of a colour in the kingdom of the face-down bridge.
 * @param {CardsView} view
 * @param {Colour} colour
 */
function warParties(view, colour) {
  const gap = faceDownGap(view.layout);
  const k = gap === null ? null : kingdomOf(view.layout, gap);
  const leader = leaderOfColour(colour);
  const letter = LEADER_LETTER[leader];
  // Attacker first (C-11); each side's strength as the war will count it (C-12).
  const order = (/** @type {number} */ seat) => (seat - view.active + view.players) % view.players;
  return (view.leaders ?? []).map((byLetter, seat) => ({ seat, spot: byLetter?.[letter] ?? null }))
    .filter((x) => x.spot && (k === null || inKingdom(x.spot, k))).sort((a, b) => order(a.seat) - order(b.seat))
    .map((x) => ({ ...x, strength: strengths(view.layout, { seat: x.seat, leader, spot: /** @type {string} */ (x.spot) }).war }));
}

/** @param {Ui} ui */
function warChooser(ui) {
  return h("div", { class: "choices war-order" },
    h("h2", {}, t("war.title")),
    h("p", { class: "hint" }, t("cards.war_order_hint")),
    ...ui.legal.wars.map((c) => {
      const parties = warParties(ui.view, c);
      const spots = new Set(parties.map((p) => /** @type {string} */ (p.spot)));
      return h("button", {
        type: "button", class: `war-choice ${c}`, "data-war": c, onclick: () => ui.act(`war ${CARD_LETTER[c]}`),
        ...pointing(ui, spots),
      }, cardIcon(CARD_LETTER[c], 18), t("war.option", {
        leader: t(`leader.${leaderOfColour(c)}`), a: ui.name(parties[0]?.seat ?? 0), b: ui.name(parties[1]?.seat ?? 0),
      }), hinting(ui)?.warStrength(t(`leader.${leaderOfColour(c)}`), parties[0]?.strength ?? 0, parties[1]?.strength ?? 0));
    }));
}

/** @param {Ui} ui */
function pointChooser(ui) {
  const d = /** @type {import("../shared/types.js").Decision} */ (ui.view.decision);
  const c = d.context ?? {};
  const colour = colourOf(c.colour) ?? ui.legal.points[0] ?? "red";
  const reason = d.kind === "ship_point" ? "ship" : ["column", "revolt", "war"].includes(c.reason) ? c.reason : "column";
  const leader = leaderOf(c.leader) ?? leaderOfColour(colour);
  const held = countCards(ui.view.hand)[colour];
  const can = ui.legal.points.includes(colour);
  return h("div", { class: "choices point" },
    h("h2", {}, cardIcon(CARD_LETTER[colour], 20), t("cards.point.title", { colour: t(`colour.${colour}`) })),
    h("p", {}, t(`cards.point.${reason}`, { colour: t(`colour.${colour}`), leader: t(`leader.${leader}`), cards: t(`cards.cards.${colour}`) })),
    h("button", {
      type: "button", class: "primary", id: "point-pay", disabled: !can, "data-point": colour,
      onclick: () => ui.act(`point ${CARD_LETTER[colour]}`),
    }, t("cards.point.pay", { card: cardName(colour), n: held })),
    ui.legal.pointNone ? h("button", { type: "button", id: "point-none", onclick: () => ui.act("point none") }, t("cards.point.none")) : null);
}

/** @param {Ui} ui */
function exchangeChooser(ui) {
  const held = countCards(ui.view.hand).red;
  return h("div", { class: "choices exchange" },
    h("h2", {}, cardIcon("t", 20), t("cards.exchange.title")),
    h("p", {}, t("cards.exchange.hint", { n: held })),
    ...ui.legal.exchanges.map((col) => {
      const spots = new Set([`${col}.0`]);
      return h("button", {
        type: "button", "data-exchange": col, onclick: () => ui.act(`exchange ${col}`),
        ...pointing(ui, spots),
      }, cardIcon("t", 18), t("cards.exchange.take", { col }));
    }),
    ui.legal.exchangeNone ? h("button", { type: "button", id: "exchange-none", onclick: () => ui.act("exchange none") }, t("cards.exchange.none")) : null);
}

/** @param {Ui} ui */
function shipChooser(ui) {
  const c = ui.view.decision?.context ?? {};
  const col = Number(c.column ?? ui.view.pending?.ship_column ?? 0);
  const cards = ui.view.layout.columns[col - 1] ?? [];
  const spots = new Set(cards.map((_, i) => `${col}.${i + 1}`).slice(-4));
  return h("div", { class: "choices ships" },
    h("h2", {}, t("cards.ship.title")),
    h("p", {}, t("cards.ship.hint", { col })),
    ...ui.legal.ships.map((code) => h("button", {
      type: "button", class: "ship-choice", "data-ship": code, onclick: () => ui.act(`ship ${code}`),
      ...pointing(ui, spots),
    }, cardIcon(code, 22), t("cards.ship.build", { ship: t(`cards.ship.${code}`) }))),
    ui.legal.decline ? h("button", { type: "button", id: "ship-decline", onclick: () => ui.act("decline") }, t("cards.ship.decline")) : null);
}

/**
 * A point pile as the view shows it (C-9): closed, its top card and height; open,
 * the count of each colour and of treasure cards, as every pile once the game is over.
 * @param {Record<string, any>|undefined} pile
 * @param {boolean} over the scoring turned every pile over (C-18)
 */
export function pileView(pile, over) {
  if (!pile) return h("span", { class: "pile" });
  // Letters now; colour names are read too, should the view adopt them.
  const count = (/** @type {string} */ letter) => Number(pile[letter] ?? pile[letter === "t" ? "treasure" : colourOf(letter) ?? letter] ?? 0);
  if ("height" in pile) {
    const c = colourOf(pile.top);
    const top = pile.top === "t" || pile.top === "treasure" ? "t" : c ? CARD_LETTER[c] : null;
    return h("span", { class: "pile closed", title: t("cards.pile_closed_hint"), "data-top": top ?? "", "data-height": Number(pile.height ?? 0) },
      top ? cardIcon(top === "t" ? "t" : top, 18, top === "t" ? t("cards.treasure_card") : t(`cards.card.${colourOf(top) ?? "red"}`)) : h("span", { class: "pile-empty" }),
      t("cards.pile_height", { n: Number(pile.height ?? 0) }));
  }
  return h("span", { class: "pile open", title: t(over ? "cards.pile_turned_hint" : "cards.pile_open_hint"), "data-counts": "rbgkt".split("").map(count).join(",") },
    ...[...COLOURS.map((c) => [CARD_LETTER[c], c]), ["t", "treasure"]].map(([letter, name]) => h("span", { class: `pt ${name}`, "data-pile": letter },
      cardIcon(/** @type {string} */ (letter), 13, name === "treasure" ? t("cards.treasure_card") : t(`cards.card.${name}`)),
      String(count(/** @type {string} */ (letter))))));
}

/**
 * The seats: names, dynasties, bots, connection, hand sizes, catastrophes, leaders
 * beside the layout, point piles.
 * @param {Ui} ui
 * @param {number[]} held seats this screen holds
 */
export function seatsPanel(ui, held) {
  const view = ui.view;
  // Nobody is to move once the game ended (a duel left by a player has no engine outcome).
  const decider = ui.game.status === "active" ? view.decision?.seat : undefined;
  const rows = (ui.game.seats ?? []).map((meta) => {
    const i = meta.seat;
    const off = LEADERS.filter((l) => !view.leaders?.[i]?.[LEADER_LETTER[l]]);
    return h("li", { class: `seat${decider === i ? " to-move" : ""}${view.active === i ? " active" : ""}${held.includes(i) ? " held" : ""}`, "data-seat": i },
      seatHead(ui, meta, held, "cards.dynasty."),
      h("div", { class: "seat-body" },
        h("span", { class: "stat hand-count" }, t("cards.cards_n", { n: view.hand_counts?.[i] ?? 0 })),
        h("span", { class: "stat" }, view.catastrophes?.[i] ? t("cards.has_catastrophe") : t("cards.no_catastrophe")),
        h("span", { class: "off-leaders", title: t("cards.in_supply") }, ...off.map((l) => leaderIcon(LEADER_COLOUR[l], dynastyOf(i), 18, t(`leader.${l}`))))),
      h("div", { class: "seat-pile" }, h("span", { class: "pile-label" }, t("cards.pile")), pileView(view.piles?.[i], Boolean(view.over))));
  });
  return seatsSection(rows);
}

/**
 * Under the layout: the deck, the cards removed unseen, the discard pile, the ships
 * still to build, the cards catastrophes took out of the game.
 * @param {CardsView} view
 */
export function tableStrip(view) {
  const discard = countCards(view.discard);
  const out = countCards(view.out);
  const counts = (/** @type {Record<Colour, number>} */ n) => COLOURS.filter((c) => n[c]).map((c) => h("span", { class: "pt" },
    cardIcon(CARD_LETTER[c], 13, t(`cards.card.${c}`)), String(n[c])));
  return h("div", { class: "table-strip" },
    h("div", { class: "stack deck", title: t("cards.deck_hint") }, cardIcon("?", 30), h("span", {},
      h("strong", {}, t("cards.deck")), " ", h("span", { id: "deck-count" }, String(view.deck_count ?? 0)),
      view.removed_count ? h("span", { class: "hint" }, ` · ${t("cards.removed", { n: view.removed_count })}`) : null)),
    h("div", { class: "stack discard", title: t("cards.discard_hint") }, h("strong", {}, t("cards.discard")), " ",
      view.discard?.length ? h("span", { class: "counts" }, ...counts(discard)) : h("span", { class: "hint" }, "0")),
    h("div", { class: "stack ships-left" }, h("strong", {}, t("cards.ships_left")), " ",
      ...(view.ships ?? []).map((code) => cardIcon(code, 20, t(`cards.ship.${code}`))),
      (view.ships ?? []).length ? null : h("span", { class: "hint" }, "–")),
    view.out?.length ? h("div", { class: "stack out", title: t("cards.out_hint") }, h("strong", {}, t("cards.out")), " ", h("span", { class: "counts" }, ...counts(out))) : null);
}

