// The lobby (/): a new game with its seats and options (or an open table, for anyone
// signed in to sit at), quick match (a table of the player's choosing now,
// shared/quickmatch.js), the friends followed and the invitations to a seat
// (shared/friends.js), the open tables waiting for players, the account area, the
// games this browser remembers (and, signed in, the account's from the server, on any
// browser, with who plays them and whether they are online), and joining or watching
// by link. The open tables and the account's games come from the lobby's WebSocket,
// which the server keeps current; they are drawn again without touching the forms.
// The games and the bots' levels are what the server offers (shared/offer.js); a rated
// table's bots only of the levels with a measured rating. The fair-play rules are linked
// from the header and beside "Rated" (/fair-play).

import { account, accountGames, accountPanel, loadAccount } from "./shared/account.js";
import { call } from "./shared/api.js";
import { byId, fill, h, keepingFocus } from "./shared/dom.js";
import { currentLang, errorText, langSwitch, onLang, t } from "./shared/i18n.js";
import { joinPanel, linkRow } from "./shared/joining.js";
import { forget, fragment, myGames, readFragment, remember, savedName, saveName } from "./shared/mygames.js";
import { ruleLink, setRulesOpener } from "./shared/rulelinks.js";
import { LobbySocket } from "./shared/lobbynet.js";
import { firstSeats, loadOffer, ratedLevels, seatMark } from "./shared/offer.js";
import { openTablesPanel, opponents } from "./shared/opentables.js";
import { QuickMatchPanel } from "./shared/quickmatch.js";
import { TableFilter } from "./shared/tablefilter.js";
import { FriendsPanel } from "./shared/friends.js";
import { TournamentsPanel } from "./shared/tournaments.js";

/** The bots' level a seat starts with, where the server has it. */
const DEFAULT_LEVEL = "intermediate";

/** @typedef {{choice: string, name: string}} SeatChoice */

/** What the server offers: null until it has answered. */
let offer = /** @type {import("./shared/offer.js").Offer | null} */ (null);
/** @type {string|null} why the server's offer could not be read */
let offerError = null;

const form = {
  /** The game chosen: the server's first, once it has said which it offers. */
  game: "",
  players: 2,
  /** @type {SeatChoice[]} */
  // You at this screen against bots: the quickest way into a game; a seat can be
  // switched to a friend's invitation or to this screen (several players) at once.
  seats: [],
  /** @type {Record<string, Record<string, boolean>>} each game's options as chosen */
  options: {},
  /** The clock: "none", "realtime:<preset>" or "turn:<days>". */
  clock: "none",
  /** An open table: listed in the lobby; its creator (signed in) sits at seat 1. */
  open: false,
  /** Rated (an open table's only: every person plays from an account). */
  rated: false,
};

const CLOCKS = ["none", "realtime:fast", "realtime:medium", "realtime:slow", "turn:1", "turn:2", "turn:3", "turn:5"];

/** @param {string} choice */
function clockBody(choice) {
  const [mode, value] = choice.split(":");
  if (mode === "realtime") return { mode, preset: value };
  if (mode === "turn") return { mode, days: Number(value) };
  return undefined;
}

/** The game chosen, as the server describes it (undefined before it has answered). */
function chosen() {
  return offer?.described[form.game];
}

/** The chosen game's options as chosen so far, from its defaults. */
function chosenOptions() {
  form.options[form.game] ??= { ...(chosen()?.options ?? {}) };
  return /** @type {Record<string, boolean>} */ (form.options[form.game]);
}

/** The bots' levels the server offers; for a rated table, those with a measured rating. */
function levels() {
  if (!offer) return [];
  return form.open && form.rated && account() ? ratedLevels(offer, form.game, form.players) : offer.levels;
}

/**
 * An open table's seat as it will be created: free, or a bot of a level offered (a
 * level the table may not seat, chosen before it was made rated, is the nearest below).
 * @param {number} i
 */
function openChoice(i) {
  const choice = form.seats[i]?.choice ?? "invite";
  if (!choice.startsWith("bot:")) return "invite";
  const all = offer?.levels ?? [];
  const allowed = levels();
  const below = all.slice(0, all.indexOf(choice.slice(4)) + 1).filter((l) => allowed.includes(l));
  const level = below.at(-1) ?? allowed[0];
  return level ? `bot:${level}` : "invite";
}

/**
 * Choose a game: its players kept where it allows as many, else its fewest.
 * @param {string} game
 */
function choose(game) {
  form.game = game;
  const allowed = chosen()?.players ?? [];
  if (!allowed.includes(form.players) && allowed.length) form.players = Math.min(...allowed);
}

/** Ask the server what it offers, then draw the forms with it (or say why not). */
async function offered() {
  try {
    offer = await loadOffer();
  } catch (e) {
    offerError = errorText(e);
    render();
    return;
  }
  form.seats = firstSeats(offer, DEFAULT_LEVEL);
  const first = offer.games[0];
  if (first !== undefined && !chosen()) choose(first);
  render();
}

/** @type {any} */
let created = null;
let busy = false;
/** @type {string|null} */
let error = null;
/** @type {Record<string, string>} */
const statuses = {};
/** @type {import("./shared/account.js").AccountGame[]} */
let serverGames = [];
/** @type {string|null} the last refusal of a seat taken or left in the open tables */
let tablesError = null;

// The open tables and the account's games: drawn into their own slots whenever the
// server says they changed, so nothing typed in a form is lost to a redraw.
const tablesSlot = h("div", { class: "tables-slot" });
const mineSlot = h("div", { class: "mine-slot" });
const lobby = new LobbySocket(() => {
  fillTables(); fillMine(); quick.update(Boolean(account())); friends.update(Boolean(account()));
  tournaments.update(Boolean(account()));
});
const quick = new QuickMatchPanel(lobby, () => offer);
const tableFilter = new TableFilter(() => offer?.games ?? [], () => fillTables());
const friends = new FriendsPanel(lobby);
const tournaments = new TournamentsPanel(lobby, () => offer);

/** What the open tables were last drawn from: the same list told again is not redrawn
 * (a redraw would take focus and hover from under the pointer for nothing). */
let tablesDrawn = "";

function fillTables() {
  const key = JSON.stringify([lobby.ready, lobby.tables, Boolean(account()), tablesError, currentLang(),
    tableFilter.filters, offer?.games]);
  if (key === tablesDrawn && tablesSlot.firstChild) return;
  tablesDrawn = key;
  // The filters' controls are kept across redraws: the one in hand keeps the focus.
  const focused = document.activeElement;
  fill(tablesSlot, openTablesPanel(lobby, Boolean(account()), (m) => { tablesError = m; fillTables(); }, tablesError, tableFilter));
  if (focused instanceof HTMLElement && focused !== document.activeElement && tableFilter.element.contains(focused)) focused.focus();
}

function fillMine() {
  fill(mineSlot, myGamesPanel());
}

// The rules reference opens over the lobby, loaded only then.
setRulesOpener((game, anchor) => void import("./rules/reference.js").then((m) => m.openPanel(game, anchor)));

// "Learn to play": the guided first games, drawn by the tour's own module, loaded
// after the lobby (the element is kept across redraws; the module redraws it).
const learn = h("section", { class: "card learn", "aria-labelledby": "learn-title" });
void import("./tour/lobby.js").then((m) => m.learnToPlay(learn));

/** Whose lobby the page was last drawn for (the account's name, or null signed out). */
let drawnFor = /** @type {string|null|undefined} */ (undefined);

/** The account box, kept across redraws while the account and the language stay: a
 * name being typed into it survives the lobby drawn again (the server's offer arriving,
 * a choice made in the new game's form). */
let accountEl = /** @type {HTMLElement|null} */ (null);
let accountKey = "";

function accountBox() {
  const key = JSON.stringify([account()?.name ?? null, currentLang()]);
  if (accountEl === null || key !== accountKey) {
    accountKey = key;
    accountEl = accountPanel(() => void accountChanged());
  }
  return accountEl;
}

/** The whole lobby, drawn again; a field being typed in keeps the focus (the account
 * box's fields move into its new form before the page is replaced). */
function render() {
  keepingFocus(draw);
}

function draw() {
  const app = byId("app");
  drawnFor = account()?.name ?? null;
  document.title = t("app.title");
  fill(app,
    h("header", { class: "top" },
      h("h1", {}, t("app.title")),
      h("p", { class: "tagline" }, t("app.tagline")),
      h("nav", { class: "rules-links", "aria-label": t("rules.button") },
        ...(offer?.games ?? []).map((g) => ruleLink(g, "", t(`rules.${g}`), "rules-button")),
        h("a", { class: "rules-button", id: "leaderboards", href: "/leaderboards" }, t("ratings.leaderboards")),
        h("a", { class: "rules-button", id: "fair-play", href: "/fair-play" }, t("fair.title"))),
      langSwitch()),
    h("main", { class: "lobby" },
      created ? createdPanel() : newGamePanel(),
      // "Learn to play" first: the boxes after it need an account or a table
      h("div", { class: "lobby-side" }, learn, quick.slot, friends.slot, tournaments.slot, tablesSlot, accountBox(),
        joinPanel((m) => { error = m; render(); }), mineSlot)));
  fillTables();
  fillMine();
  quick.update(Boolean(account()));
  friends.update(Boolean(account()));
  tournaments.update(Boolean(account()));
}

function newGamePanel() {
  const game = chosen();
  if (!offer || !game) {
    // Until the server has said what it offers: the card, and why it stays empty.
    return h("section", { class: "card new-game", "aria-labelledby": "new-title", "aria-busy": String(!offerError) },
      h("h2", { id: "new-title" }, t("lobby.new")),
      offerError ? h("p", { class: "error", role: "alert" }, offerError) : null);
  }
  const gameChoice = h("div", { class: "segmented", role: "radiogroup", "aria-label": t("lobby.game") },
    ...offer.games.map((g) => h("button", {
      type: "button", role: "radio", "aria-checked": String(form.game === g), "data-game": g,
      onclick: () => { choose(g); render(); },
    }, t(`lobby.${g}`))));
  const players = h("div", { class: "segmented", role: "radiogroup", "aria-label": t("lobby.players") },
    ...game.players.map((n) => h("button", {
      type: "button", role: "radio", "aria-checked": String(form.players === n), "data-players": n,
      onclick: () => { form.players = n; render(); },
    }, String(n))));
  const seats = h("ol", { class: "seats-form" });
  for (let i = 0; i < form.players; i++) seats.append(form.open ? openSeatRow(i) : seatRow(i));
  const options = chosenOptions();
  const me = account();
  const open = h("label", { class: "check open-check" },
    h("input", {
      type: "checkbox", name: "open", id: "open-table", checked: form.open && Boolean(me), disabled: !me,
      onchange: (/** @type {Event} */ e) => { form.open = /** @type {HTMLInputElement} */ (e.target).checked; render(); },
    }), t("lobby.open_table"));
  return h("section", { class: "card new-game", "aria-labelledby": "new-title" },
    h("h2", { id: "new-title" }, t("lobby.new")),
    h("div", { class: "field" }, h("span", { class: "label" }, t("lobby.game")), gameChoice),
    h("div", { class: "field" }, h("span", { class: "label" }, t("lobby.players")), players),
    h("div", { class: "field" }, open, h("span", { class: "hint" }, me ? t("lobby.open_hint") : t("lobby.open_sign_in"))),
    form.open && me ? h("div", { class: "field" }, h("label", { class: "check rated-check" },
      h("input", {
        type: "checkbox", name: "rated", id: "rated-table", checked: form.rated,
        onchange: (/** @type {Event} */ e) => { form.rated = /** @type {HTMLInputElement} */ (e.target).checked; render(); },
      }), t("ratings.rated")), h("span", { class: "hint" }, t("ratings.rated_hint"), " ",
      h("a", { href: "/fair-play", id: "rated-rules" }, t("fair.rules_link")))) : null,
    seats,
    h("fieldset", { class: "options" }, h("legend", {}, t("lobby.options")),
      ...Object.keys(options).map((o) => h("label", { class: "check" },
        h("input", {
          type: "checkbox", name: o, checked: Boolean(options[o]),
          onchange: (/** @type {Event} */ e) => { options[o] = /** @type {HTMLInputElement} */ (e.target).checked; },
        }), t(`lobby.opt.${o}`)))),
    h("div", { class: "field" }, h("label", { class: "label", for: "clock" }, t("lobby.clock")),
      h("select", {
        id: "clock", name: "clock",
        onchange: (/** @type {Event} */ e) => { form.clock = /** @type {HTMLSelectElement} */ (e.target).value; },
      }, ...CLOCKS.map((c) => h("option", { value: c, selected: form.clock === c },
        c.startsWith("turn:") ? t("lobby.clock.turn", { n: c.slice(5) }) : t(`lobby.clock.${c.replace("realtime:", "")}`))))),
    error ? h("p", { class: "error", role: "alert" }, error) : null,
    h("button", { type: "button", class: "primary big", id: "create", disabled: busy, onclick: create },
      busy ? t("lobby.creating") : t("lobby.create")));
}

/** @param {number} i */
function seatRow(i) {
  const seat = /** @type {SeatChoice} */ (form.seats[i]);
  const select = h("select", {
    "aria-label": t("lobby.seat", { n: i + 1 }), name: `seat${i}`,
    onchange: (/** @type {Event} */ e) => { seat.choice = /** @type {HTMLSelectElement} */ (e.target).value; render(); },
  },
    h("option", { value: "here", selected: seat.choice === "here" }, t("lobby.here")),
    h("option", { value: "invite", selected: seat.choice === "invite" }, t("lobby.invite")),
    ...levels().map((l) => h("option", { value: `bot:${l}`, selected: seat.choice === `bot:${l}` },
      t("lobby.bot", { level: t(`level.${l}`) }))));
  const name = seat.choice === "here"
    ? h("input", {
      type: "text", maxlength: 40, name: `name${i}`, "aria-label": t("lobby.name"),
      placeholder: i === firstHere() ? (savedName() || t("player.default", { n: i + 1 })) : t("player.default", { n: i + 1 }),
      value: seat.name || (i === firstHere() ? savedName() : ""),
      oninput: (/** @type {Event} */ e) => { seat.name = /** @type {HTMLInputElement} */ (e.target).value; },
    })
    : null;
  return h("li", { class: "seat-row" },
    seatMark(chosen(), i),
    h("span", { class: "seat-label" }, t("lobby.seat", { n: i + 1 })),
    select, name);
}

/**
 * A seat of an open table: the creator's own (the first), or free for anyone signed
 * in, or a bot.
 * @param {number} i
 */
function openSeatRow(i) {
  const seat = /** @type {SeatChoice} */ (form.seats[i]);
  const icon = seatMark(chosen(), i);
  if (i === 0) {
    return h("li", { class: "seat-row" }, icon, h("span", { class: "seat-label" }, t("lobby.seat", { n: 1 })),
      h("span", { class: "seat-you" }, t("lobby.you_sit", { name: account()?.name ?? "" })));
  }
  const choice = openChoice(i);
  return h("li", { class: "seat-row" }, icon, h("span", { class: "seat-label" }, t("lobby.seat", { n: i + 1 })),
    h("select", {
      "aria-label": t("lobby.seat", { n: i + 1 }), name: `seat${i}`,
      onchange: (/** @type {Event} */ e) => { seat.choice = /** @type {HTMLSelectElement} */ (e.target).value; render(); },
    },
    h("option", { value: "invite", selected: choice === "invite" }, t("lobby.free_seat")),
    ...levels().map((l) => h("option", { value: `bot:${l}`, selected: choice === `bot:${l}` },
      t("lobby.bot", { level: t(`level.${l}`) })))));
}

function firstHere() {
  return form.seats.slice(0, form.players).findIndex((s) => s.choice === "here");
}

/**
 * What both ways of creating a game send: the game, its seats, its options and clock.
 * @param {{kind: string, level?: string}[]} seats
 */
function gameBody(seats) {
  /** @type {Record<string, boolean>} */
  const options = {};
  for (const [o, on] of Object.entries(chosenOptions())) options[o] = Boolean(on);
  const clock = clockBody(form.clock);
  return { game: form.game, players: form.players, seats, options, ...(clock ? { clock } : {}) };
}

async function create() {
  error = null;
  const seats = form.seats.slice(0, form.players);
  if (form.open && account()) {
    await createOpen(seats);
    return;
  }
  busy = true;
  render();
  try {
    const res = await call("/api/games", {
      method: "POST",
      body: gameBody(seats.map((s) => s.choice.startsWith("bot:") ? { kind: "bot", level: s.choice.slice(4) } : { kind: "human" })),
    });
    /** @type {string[]} */
    const here = [];
    /** @type {{seat: number, link: string}[]} */
    const invites = [];
    for (const seat of res.seats) {
      if (!seat.token) continue;
      const choice = /** @type {SeatChoice} */ (seats[seat.seat]);
      if (choice.choice === "here") {
        here.push(seat.token);
        const name = choice.name.trim() || (seat.seat === firstHere() ? savedName() : "") || t("player.default", { n: seat.seat + 1 });
        if (seat.seat === firstHere() && choice.name.trim()) saveName(choice.name.trim());
        await call(`/api/games/${res.id}/join`, { method: "POST", body: { name }, tokens: [seat.token] });
      } else {
        invites.push({ seat: seat.seat, link: `${location.origin}/g/${res.id}#s=${seat.token}` });
      }
    }
    remember({
      id: res.id, game: form.game, players: form.players, seats: here, host: res.host.token, invites,
      status: res.game?.status ?? "waiting",
    });
    created = { id: res.id, here, host: res.host.token, invites };
    if (!invites.length) {
      location.assign(`/g/${res.id}${fragment(here, res.host.token)}`);
      return;
    }
  } catch (e) {
    error = errorText(e);
  } finally {
    busy = false;
  }
  render();
}

/**
 * An open table: the creator sits at the first seat (by the account), the others are
 * free or bots; then to the table, where it waits for players.
 * @param {SeatChoice[]} seats
 */
async function createOpen(seats) {
  const kinds = seats.map((_, i) => (i > 0 && openChoice(i).startsWith("bot:") ? { kind: "bot", level: openChoice(i).slice(4) } : { kind: "human" }));
  if (kinds.filter((k) => k.kind === "human").length < 2) {
    error = t("lobby.need_free");
    render();
    return;
  }
  busy = true;
  render();
  try {
    const res = await call("/api/games", {
      method: "POST",
      body: { ...gameBody(kinds), open: true, rated: form.rated },
    });
    const invites = res.seats.filter((/** @type {any} */ s) => s.token && s.seat > 0)
      .map((/** @type {any} */ s) => ({ seat: s.seat, link: `${location.origin}/g/${res.id}#s=${s.token}` }));
    remember({ id: res.id, game: form.game, players: form.players, seats: [], host: res.host.token, invites, status: "waiting" });
    location.assign(`/g/${res.id}`);
  } catch (e) {
    error = errorText(e);
    busy = false;
    render();
  }
}

function createdPanel() {
  const c = created;
  const tableLink = `/g/${c.id}${fragment(c.here, c.host)}`;
  return h("section", { class: "card created", "aria-labelledby": "created-title" },
    h("h2", { id: "created-title" }, t("lobby.created")),
    h("p", {}, t("lobby.invite_hint")),
    h("ul", { class: "links" },
      ...c.invites.map((/** @type {{seat: number, link: string}} */ inv) => linkRow(t("lobby.seat", { n: inv.seat + 1 }), inv.link)),
      linkRow(t("lobby.spectate_link"), `${location.origin}/g/${c.id}`),
      linkRow(t("lobby.host_link"), `${location.origin}/g/${c.id}#h=${c.host}`)),
    h("a", { class: "button primary big", href: tableLink, id: "to-table" }, t("lobby.to_table")));
}

/** The account's games first (their links need no token) — those the lobby's socket
 * has told of too, with their newest status — then this browser's others. */
function listed() {
  const local = myGames();
  const known = [...lobby.games.map((g) => ({ id: g.id, game: g.game, players: g.players, status: g.status, created: g.created })),
    ...serverGames.filter((g) => !lobby.games.some((x) => x.id === g.id))];
  const fromServer = known.map((g) => {
    const here = local.find((l) => l.id === g.id);
    return { id: g.id, game: g.game, players: g.players, seats: [], host: here?.host ?? null, invites: [], status: g.status, at: g.created };
  });
  return [...fromServer, ...local.filter((l) => !known.some((g) => g.id === l.id))];
}

/** @param {boolean} [restart] signed in or out here: the lobby's socket starts again */
async function accountChanged(restart = true) {
  // The server tells a new connection what this account may see.
  if (restart) lobby.restart();
  try {
    serverGames = await accountGames();
  } catch {
    serverGames = [];
  }
  // The forms are drawn again only when the account they depend on changed: a page
  // rebuilt between a press and its release loses that click.
  if ((account()?.name ?? null) === drawnFor) fillMine();
  else render();
}

function myGamesPanel() {
  const games = listed();
  const list = h("ul", { class: "my-games" });
  for (const g of games) {
    const status = lobby.games.find((x) => x.id === g.id)?.status ?? statuses[g.id] ?? g.status;
    const ended = status === "over" || status === "abandoned" || status === "aborted";
    list.append(h("li", { class: ended ? "ended" : "", "data-id": g.id },
      h("span", { class: "game-name" }, t("lobby.vs", { game: t(`lobby.${g.game}`), players: g.players })),
      opponents(lobby.games.find((x) => x.id === g.id)),
      h("span", { class: `status ${status}` }, t(`status.${status}`)),
      h("span", { class: "when" }, new Date(g.at).toLocaleDateString(currentLang())),
      h("a", { class: "button small", href: `/g/${g.id}${fragment(g.seats, g.host)}` }, t("lobby.open")),
      ended ? h("a", { class: "button small", href: `/replay/${g.id}` }, t("lobby.replay")) : null,
      serverGames.some((x) => x.id === g.id) || lobby.games.some((x) => x.id === g.id) ? null
        : h("button", { type: "button", class: "small quiet", onclick: () => { forget(g.id); render(); } }, t("lobby.forget"))));
  }
  return h("section", { class: "card mine", "aria-labelledby": "mine-title" },
    h("h2", { id: "mine-title" }, t("lobby.mine")),
    games.length ? list : h("p", { class: "hint" }, t(account() ? "account.no_games" : "lobby.none")));
}

async function refreshStatuses() {
  const games = myGames().slice(0, 20);
  await Promise.all(games.map(async (g) => {
    try {
      const doc = await call(`/api/games/${encodeURIComponent(g.id)}`);
      statuses[g.id] = doc.game.status;
      if (doc.game.status !== g.status) remember({ id: g.id, status: doc.game.status });
    } catch {
      /* a game the server no longer has keeps its last status */
    }
  }));
  fillMine();
}

// A link opened with a fragment but on the lobby's address is moved to its table.
const frag = readFragment(location.hash);
if (frag.seats.length || frag.host) history.replaceState(null, "", "/");
onLang(render);
render();
lobby.connect();
void offered();
void loadAccount().then(() => accountChanged(false), () => {});
void refreshStatuses();
