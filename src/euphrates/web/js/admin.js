// The admins' page (/admin): the open reports, oldest first, one per line or player
// reported — a line with the lines around it in its game and who said them, or a
// player — who reported it and why, and the account's standing and earlier reports.
// An admin dismisses a report or mutes or disables the account (the server closes its
// connections at once, on every server), and looks any account up to let it back.
// Everything here is the server's to refuse: a page of someone else gets `not_admin`.

import { loadAccount } from "./shared/account.js";
import { call } from "./shared/api.js";
import { byId, fill, h, stylesheet } from "./shared/dom.js";
import { currentLang, errorText, langSwitch, onLang, t } from "./shared/i18n.js";
import { ServerError } from "./shared/net.js";
import { fatalPage } from "./shared/pages.js";
import { MODERATION_CSS } from "./shared/report.js";

/**
 * An account as an admin sees it.
 * @typedef {{name: string, muted: boolean, disabled: boolean, admin: boolean}} Standing
 * @typedef {{kind: string, game: string|null, text: string|null, reason: string,
 *            reporter: string, at: string, resolution: string|null}} Earlier
 * @typedef {{seq: number, author: string, account: string|null, text: string, at: string,
 *            reported: boolean}} Line
 * @typedef {{id: number, kind: "chat"|"player", at: string, game: string|null, seq: number|null,
 *            reports: {reporter: string, reason: string, at: string}[],
 *            account: Standing|null, context: Line[], recent: Earlier[]}} Case
 */

const app = byId("app");
/** @type {Case[]|null} */
let cases = null;
/** @type {(Standing & {recent: Earlier[]})|null} */
let looked = null;
/** @type {string|null} */
let problem = null;
let refused = false;
let said = "";
let failed = false;
/** The look-up's field, made once: what an admin types survives the redraws. */
const lookupField = h("input", { type: "text", id: "lookup-name", maxlength: 64, autocomplete: "off" });

/** @param {string} name */
const userPath = (name) => `/api/admin/users/${encodeURIComponent(name)}`;

/** @param {string} at */
const when = (at) => new Date(at).toLocaleString(currentLang());

async function load() {
  try {
    cases = (await call("/api/admin/reports")).reports;
    if (looked) looked = await call(userPath(looked.name));
  } catch (e) {
    if (e instanceof ServerError && (e.code === "not_admin" || e.code === "csrf_failed")) refused = true;
    else problem = errorText(e);
  }
}

/**
 * Make a change, then read the reports again and say what came of it.
 * @param {() => Promise<any>} request
 * @param {string} done the words for success
 */
async function act(request, done) {
  try {
    await request();
    said = done;
    failed = false;
  } catch (e) {
    said = errorText(e);
    failed = true;
  }
  await load();
  render();
  document.getElementById("admin-status")?.focus();
}

/**
 * @param {Case} c
 * @param {"dismissed"|"muted"|"disabled"} resolution
 */
function settle(c, resolution) {
  const name = c.account?.name ?? "";
  return act(() => call(`/api/admin/reports/${c.id}`, { method: "POST", body: { resolution } }), t(`admin.done.${resolution}`, { name }));
}

/**
 * @param {string} name
 * @param {{muted?: boolean, disabled?: boolean}} change
 * @param {string} done
 */
function stand(name, change, done) {
  return act(() => call(userPath(name), { method: "POST", body: change }), t(done, { name }));
}

/**
 * What can be done to an account: mute or unmute, disable or enable; from a report,
 * muting and disabling settle it.
 * @param {Standing} a
 * @param {Case|null} c
 */
function standingButtons(a, c) {
  const button = (/** @type {string} */ kind, /** @type {string} */ key, /** @type {() => Promise<void>} */ go) =>
    h("button", { type: "button", class: kind === "disabled" ? "small danger" : "small", "data-act": kind, onclick: () => void go() }, t(key, { name: a.name }));
  return [
    a.muted
      ? button("unmute", "admin.unmute", () => stand(a.name, { muted: false }, "admin.done.unmuted"))
      : button("muted", "admin.mute", () => (c ? settle(c, "muted") : stand(a.name, { muted: true }, "admin.done.muted"))),
    a.disabled
      ? button("enable", "admin.enable", () => stand(a.name, { disabled: false }, "admin.done.enabled"))
      : button("disabled", "admin.disable", () => (c ? settle(c, "disabled") : stand(a.name, { disabled: true }, "admin.done.disabled"))),
  ];
}

/** @param {Standing} a */
function standing(a) {
  const tags = /** @type {const} */ (["muted", "disabled", "admin"]).filter((k) => a[k]);
  return h("p", { class: "standing" },
    h("a", { href: `/u/${encodeURIComponent(a.name)}` }, t("admin.account", { name: a.name })),
    ...tags.map((k) => h("span", { class: `tag ${k}` }, t(`admin.${k}`))));
}

/**
 * @param {string} name
 * @param {Earlier[]} recent
 */
function earlier(name, recent) {
  if (!recent.length) return null;
  return h("details", { class: "recent" },
    h("summary", {}, t("admin.recent", { name })),
    h("ul", {}, ...recent.map((r) => h("li", {},
      h("span", { class: "tag" }, t(`admin.kind.${r.kind}`)), " ",
      r.text ? h("q", {}, r.text) : null, r.text ? " " : null,
      r.reason || t("admin.no_reason"), " — ", r.reporter, ", ", when(r.at), ", ",
      h("em", {}, r.resolution ? t(`admin.res.${r.resolution}`) : t("admin.open"))))));
}

/** @param {Case} c */
function context(c) {
  return [
    h("h3", {}, t("admin.context")),
    h("ol", { class: "context" }, ...c.context.map((l) => h("li", { class: l.reported ? "reported" : "", "data-seq": l.seq },
      h("span", { class: "author" }, l.author),
      l.account !== l.author ? h("span", { class: "hint" }, ` (${l.account ?? t("admin.guest")})`) : null,
      " ", h("span", { class: "text" }, l.text),
      l.reported ? h("span", { class: "tag" }, t("admin.reported")) : null))),
  ];
}

/** @param {Case} c */
function caseCard(c) {
  const id = `case-${c.id}`;
  const title = c.kind === "chat" ? t("admin.line_in", { game: c.game ?? "" }) : t("admin.player", { name: c.account?.name ?? "" });
  return h("article", { class: "card case", "aria-labelledby": id, "data-kind": c.kind, "data-report": c.id },
    h("h2", { id }, title),
    h("p", { class: "hint" }, t("admin.first", { when: when(c.at) })),
    ...(c.kind === "chat" ? context(c) : []),
    h("h3", {}, t("admin.reported_by")),
    h("ul", { class: "reporters" }, ...c.reports.map((r) => h("li", {},
      h("strong", {}, r.reporter), ": ", r.reason || t("admin.no_reason"), " ", h("span", { class: "hint" }, when(r.at))))),
    c.account ? standing(c.account) : h("p", { class: "hint" }, t("admin.no_account")),
    c.account ? earlier(c.account.name, c.recent) : null,
    h("div", { class: "row actions" },
      h("button", { type: "button", class: "small", "data-act": "dismissed", onclick: () => void settle(c, "dismissed") }, t("admin.dismiss")),
      ...(c.account ? standingButtons(c.account, c) : []),
      c.kind === "chat" && c.game ? h("a", { class: "button small quiet", href: `/g/${encodeURIComponent(c.game)}` }, t("admin.watch")) : null));
}

function lookup() {
  lookupField.setAttribute("aria-label", t("admin.name"));
  const find = () => act(async () => {
    looked = await call(userPath(lookupField.value.trim()));
  }, "");
  return h("section", { class: "card lookup", "aria-labelledby": "lookup-title" },
    h("h2", { id: "lookup-title" }, t("admin.lookup")),
    h("p", { class: "hint" }, t("admin.lookup_hint")),
    h("form", { class: "row", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); if (lookupField.value.trim()) void find(); } },
      h("label", { for: "lookup-name" }, t("admin.name")), lookupField,
      h("button", { type: "submit", id: "lookup" }, t("admin.find"))),
    looked
      ? h("div", { class: "looked", "data-name": looked.name },
        standing(looked), earlier(looked.name, looked.recent),
        h("div", { class: "row actions" }, ...standingButtons(looked, null)))
      : null);
}

function render() {
  if (problem) {
    fatalPage(app, problem);
    return;
  }
  document.title = `${t("admin.title")} · ${t("app.title")}`;
  const header = h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch());
  if (refused) {
    fill(app, header, h("main", { class: "message" }, h("p", { id: "not-admin" }, t("admin.sign_in"))));
    return;
  }
  if (!cases) return;
  fill(app, header,
    h("main", { class: "admin" },
      h("section", { class: "card", "aria-labelledby": "admin-title" },
        h("h1", { id: "admin-title" }, t("admin.title")),
        h("p", { class: "hint" }, t("admin.hint")),
        h("p", { class: failed ? "error" : "hint", id: "admin-status", role: "status", tabindex: -1 }, said),
        cases.length ? null : h("p", { id: "no-reports" }, t("admin.none"))),
      ...cases.map(caseCard),
      lookup()));
}

async function start() {
  try {
    await Promise.all([loadAccount(), stylesheet(MODERATION_CSS)]);
  } catch (e) {
    problem = errorText(e);
  }
  if (!problem) await load();
  render();
}

onLang(render);
void start();
