// The rules reference as its own page (/rules/board, /rules/cards; `?lang=de` or the
// page's language as every page chooses it). A ruling cited on the page scrolls to it;
// one of the other game opens that game's page.

import { byId, fill, h } from "./shared/dom.js";
import { errorText, langSwitch, onLang, t } from "./shared/i18n.js";
import { setRulesOpener } from "./shared/rulelinks.js";
import { landOn, reference } from "./rules/reference.js";

const game = /^\/rules\/(board|cards)\/?$/.exec(location.pathname)?.[1] ?? "board";
const app = byId("app");

setRulesOpener((g, anchor) => {
  if (g !== game) {
    location.assign(`/rules/${g}${location.search}#rule-${anchor}`);
    return;
  }
  history.replaceState(null, "", `${location.pathname}${location.search}#rule-${anchor}`);
  landOn(app, anchor);
});

async function render() {
  try {
    const { doc, body } = await reference(game);
    document.title = doc.title;
    fill(app,
      h("header", { class: "top" }, h("a", { href: "/", class: "home" }, t("nav.lobby")), langSwitch()),
      h("main", { class: "rules-page" }, body));
    landOn(app, decodeURIComponent(location.hash.replace(/^#rule-/, "")));
  } catch (e) {
    fill(app, h("p", { class: "notice" }, errorText(e)));
  }
}

onLang(() => void render());
void render();
