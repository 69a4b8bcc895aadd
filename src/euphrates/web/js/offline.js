// The page the service worker (web/worker/sw.js) shows in place of any page while the
// server cannot be reached: it says so in the player's language (its texts come from
// the worker's copies), asks the server again every few seconds, and when it answers,
// loads the page that was asked for (this page stands at that page's address).

import { byId, h } from "./shared/dom.js";
import { langSwitch, onLang, t } from "./shared/i18n.js";

const app = byId("app");
const EVERY_MS = 5000;
let tries = 0;

function draw() {
  document.title = t("offline.title");
  app.replaceChildren(
    h("header", { class: "top" }, langSwitch()),
    h("main", { class: "offline" },
      h("h1", {}, t("offline.title")),
      h("p", { role: "status" }, t("offline.text")),
      tries ? h("p", { class: "hint" }, t("offline.tries", { n: tries })) : null,
      h("button", { type: "button", class: "primary", onclick: () => void ask() }, t("offline.retry"))));
}

async function ask() {
  tries += 1;
  try {
    const res = await fetch("/api/meta", { cache: "no-store" });
    if (res.ok) {
      location.reload();
      return;
    }
  } catch {
    /* still unreachable */
  }
  draw();
}

onLang(draw);
draw();
setInterval(() => void ask(), EVERY_MS);
