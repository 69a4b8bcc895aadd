// The lobby's "Learn to play": a guided first game of each game, started here, joined
// under the name the lobby remembers, then opened at its table.

import { call } from "../shared/api.js";
import { fill, h, stylesheet } from "../shared/dom.js";
import { useTexts, errorText, onLang, t } from "../shared/i18n.js";
import { savedName } from "../shared/mygames.js";

await useTexts("tour");
void stylesheet("/static/css/tour.css");

/** @param {HTMLElement} box */
export function learnToPlay(box) {
  /** @type {string|null} */
  let error = null;
  let busy = false;
  /** @param {string} game */
  const start = async (game) => {
    if (busy) return;
    busy = true;
    error = null;
    draw();
    try {
      const made = await call("/api/tours", { method: "POST", body: { game } });
      const seat = made.seats[0];
      await call(`/api/games/${made.id}/join`, { method: "POST", body: { name: savedName() || t("tour.you") }, tokens: [seat.token] });
      location.assign(seat.link);
    } catch (e) {
      error = errorText(e);
      busy = false;
      draw();
    }
  };
  const draw = () => {
    fill(box,
      h("h2", { id: "learn-title" }, t("tour.learn")),
      h("p", {}, t("tour.learn_hint")),
      // each game's button with what its guide teaches (the two guides differ)
      h("ul", { class: "learn-games" },
        ...["board", "cards"].map((game) => h("li", {},
          h("button", {
            type: "button", class: "learn-game", "data-game": game, disabled: busy, onclick: () => void start(game),
          }, t(`tour.learn.${game}`)),
          h("span", { class: "hint" }, t(`tour.learn_hint.${game}`))))),
      ...(error ? [h("p", { class: "error", role: "alert" }, error)] : []));
  };
  draw();
  onLang(draw);
}
