// The account's settings (/account/notifications): being told out of the browser that
// it is your turn — an e-mail address (verified by a code mailed to it), a webhook,
// each on or off, per turn or a daily digest at an hour of your time zone, a test
// message — a vacation from the turn-based clocks (shared/vacation.js) and a change of
// password. The address and the webhook are the account's own: only its owner's page
// ever reads them (docs/server.md, Notifications).

import { account, loadAccount } from "./shared/account.js";
import { call, setCsrf } from "./shared/api.js";
import { byId, fill, h } from "./shared/dom.js";
import { currentLang, errorText, langSwitch, onLang, t } from "./shared/i18n.js";
import { fatalPage } from "./shared/pages.js";
import { VacationSection } from "./shared/vacation.js";

/**
 * What the server keeps of the account's notifications.
 * @typedef {object} Notify
 * @property {string|null} email
 * @property {string|null} email_pending
 * @property {boolean} email_on
 * @property {string|null} webhook
 * @property {boolean} webhook_on
 * @property {boolean} digest
 * @property {number} digest_hour
 * @property {string} timezone
 * @property {string} lang
 * @property {boolean} mail
 * @property {string|null} next_digest
 */

const app = byId("app");
/** @type {Notify|null} */
let prefs = null;
/** @type {string|null} */
let problem = null;
/** What the last action said, shown in the status line. */
let said = "";
let failed = false;
const vacation = new VacationSection(() => render());
/** A code from the link mailed to the player (#code=…), entered once. */
let linkCode = /^#code=([A-Za-z0-9-]{4,20})$/.exec(location.hash)?.[1] ?? "";

/**
 * Run a request that changes the settings; show what came of it.
 * @param {() => Promise<any>} request
 * @param {string} done the words for success
 */
async function act(request, done) {
  try {
    const answer = await request();
    if (answer && "email_on" in answer) prefs = /** @type {Notify} */ (answer);
    said = done;
    failed = false;
  } catch (e) {
    said = errorText(e);
    failed = true;
  }
  render();
}

/**
 * Change some settings; the messages are written in the language this page is read in.
 * @param {Record<string, any>} body
 */
const change = (body) => call("/api/account/notifications", { method: "POST", body: { ...body, lang: currentLang() } });

function emailSection() {
  const p = /** @type {Notify} */ (prefs);
  if (!p.mail) return h("section", { class: "field", "aria-labelledby": "email-title" }, h("h2", { id: "email-title" }, t("notify.email")), h("p", { class: "hint", id: "no-mail" }, t("notify.no_mail")));
  const address = h("input", { type: "email", id: "email", maxlength: 254, autocomplete: "email", "aria-label": t("notify.address") });
  const code = h("input", { type: "text", id: "code", maxlength: 20, autocomplete: "one-time-code", "aria-label": t("notify.code"), value: linkCode });
  return h("section", { class: "field", "aria-labelledby": "email-title" },
    h("h2", { id: "email-title" }, t("notify.email")),
    h("p", { id: "email-now" }, p.email ? t("notify.email_is", { email: p.email }) : t("notify.email_none")),
    h("div", { class: "row" },
      h("label", { class: "label", for: "email" }, t("notify.address")), address,
      h("button", { type: "button", id: "send-code", onclick: () => void act(() => call("/api/account/notifications/email", { method: "POST", body: { email: address.value, lang: currentLang() } }), t("notify.code_sent")) }, t("notify.send_code"))),
    p.email_pending
      ? h("div", { class: "row" },
        h("label", { class: "label", for: "code" }, t("notify.code_for", { email: p.email_pending })), code,
        h("button", { type: "button", id: "verify", onclick: () => void act(() => call("/api/account/notifications/verify", { method: "POST", body: { code: code.value } }), t("notify.verified")) }, t("notify.verify")))
      : null,
    h("label", { class: "check" },
      h("input", { type: "checkbox", id: "email-on", checked: p.email_on, disabled: !p.email, onchange: (/** @type {Event} */ e) => void act(() => change({ email_on: /** @type {HTMLInputElement} */ (e.target).checked }), t("notify.saved")) }),
      t("notify.email_on")),
    h("div", { class: "row" },
      h("button", { type: "button", class: "small", id: "test-email", disabled: !p.email, onclick: () => void act(() => call("/api/account/notifications/test", { method: "POST", body: { channel: "email" } }), t("notify.test_sent")) }, t("notify.test_email")),
      p.email || p.email_pending
        ? h("button", { type: "button", class: "small quiet", id: "remove-email", onclick: () => void act(() => call("/api/account/notifications/email", { method: "POST", body: { email: null } }), t("notify.saved")) }, t("notify.remove"))
        : null));
}

function webhookSection() {
  const p = /** @type {Notify} */ (prefs);
  const url = h("input", { type: "url", id: "webhook", maxlength: 500, value: p.webhook ?? "", placeholder: "https://discord.com/api/webhooks/…", "aria-label": t("notify.webhook_url") });
  return h("section", { class: "field", "aria-labelledby": "webhook-title" },
    h("h2", { id: "webhook-title" }, t("notify.webhook")),
    h("p", { class: "hint" }, t("notify.webhook_hint")),
    h("div", { class: "row" },
      h("label", { class: "label", for: "webhook" }, t("notify.webhook_url")), url,
      h("button", { type: "button", id: "save-webhook", onclick: () => void act(() => change({ webhook: url.value.trim() || null }), t("notify.saved")) }, t("notify.save"))),
    h("label", { class: "check" },
      h("input", { type: "checkbox", id: "webhook-on", checked: p.webhook_on, disabled: !p.webhook, onchange: (/** @type {Event} */ e) => void act(() => change({ webhook_on: /** @type {HTMLInputElement} */ (e.target).checked }), t("notify.saved")) }),
      t("notify.webhook_on")),
    h("button", { type: "button", class: "small", id: "test-webhook", disabled: !p.webhook, onclick: () => void act(() => call("/api/account/notifications/test", { method: "POST", body: { channel: "webhook" } }), t("notify.test_sent")) }, t("notify.test_webhook")));
}

function whenSection() {
  const p = /** @type {Notify} */ (prefs);
  const hour = h("select", { id: "digest-hour", "aria-label": t("notify.hour") },
    ...Array.from({ length: 24 }, (_, i) => h("option", { value: i, selected: i === p.digest_hour }, `${String(i).padStart(2, "0")}:00`)));
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const zone = h("input", { type: "text", id: "timezone", maxlength: 64, value: p.digest ? p.timezone : here, "aria-label": t("notify.zone") });
  const mode = (/** @type {boolean} */ digest) => h("label", { class: "check" },
    h("input", { type: "radio", name: "mode", id: digest ? "mode-digest" : "mode-turn", checked: p.digest === digest,
      onchange: () => void act(() => change({ digest, digest_hour: Number(hour.value), timezone: zone.value.trim() || "UTC" }), t("notify.saved")) }),
    t(digest ? "notify.digest" : "notify.per_turn"));
  const next = p.next_digest ? new Date(p.next_digest).toLocaleString(currentLang()) : null;
  return h("section", { class: "field", "aria-labelledby": "when-title" },
    h("h2", { id: "when-title" }, t("notify.when")),
    h("p", { class: "hint" }, t("notify.which_games")),
    h("fieldset", { class: "modes" }, h("legend", {}, t("notify.how_often")), mode(false), mode(true)),
    h("div", { class: "row" },
      h("label", { class: "label", for: "digest-hour" }, t("notify.hour")), hour,
      h("label", { class: "label", for: "timezone" }, t("notify.zone")), zone,
      h("button", { type: "button", class: "small", id: "save-digest", onclick: () => void act(() => change({ digest_hour: Number(hour.value), timezone: zone.value.trim() || "UTC" }), t("notify.saved")) }, t("notify.save"))),
    next ? h("p", { class: "hint", id: "next-digest" }, t("notify.next", { when: next })) : null);
}

function passwordSection() {
  const old = h("input", { type: "password", id: "old-password", autocomplete: "current-password", maxlength: 256 });
  const fresh = h("input", { type: "password", id: "new-password", autocomplete: "new-password", maxlength: 256 });
  const go = () => act(async () => {
    const doc = await call("/api/account/password", { method: "POST", body: { old: old.value, new: fresh.value } });
    setCsrf(doc.csrf);
    return null;
  }, t("password.changed"));
  return h("section", { class: "card", "aria-labelledby": "password-title" },
    h("h2", { id: "password-title" }, t("password.title")),
    h("p", { class: "hint" }, t("password.hint")),
    h("label", { class: "field" }, t("password.old"), old),
    h("label", { class: "field" }, t("password.new"), fresh),
    h("button", { type: "button", id: "change-password", onclick: () => void go() }, t("password.change")));
}

function render() {
  if (problem) {
    fatalPage(app, problem);
    return;
  }
  document.title = `${t("notify.title")} · ${t("app.title")}`;
  const me = account();
  const header = h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch());
  if (!me || !prefs) {
    fill(app, header, h("main", { class: "message" }, h("p", { id: "sign-in-first" }, t("notify.sign_in"))));
    return;
  }
  fill(app, header,
    h("main", { class: "settings" },
      h("section", { class: "card", "aria-labelledby": "notify-title" },
        h("h1", { id: "notify-title" }, t("notify.title")),
        h("p", { class: "hint" }, t("notify.hint")),
        h("p", { class: failed ? "error" : "hint", id: "notify-status", role: "status" }, said),
        emailSection(), webhookSection(), whenSection()),
      vacation.render(),
      passwordSection()));
}

async function start() {
  try {
    if (await loadAccount()) {
      prefs = await call("/api/account/notifications");
      await vacation.load();
    }
  } catch (e) {
    problem = errorText(e);
  }
  render();
  if (linkCode && prefs?.email_pending) {
    const code = linkCode;
    linkCode = "";
    history.replaceState(null, "", location.pathname);
    await act(() => call("/api/account/notifications/verify", { method: "POST", body: { code } }), t("notify.verified"));
  }
}

onLang(render);
void start();
