// Leaving a game in play to a bot, after a confirmation: the seat is played by the table's bot
// from then on, and the game goes on without you.

import { says } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { playerApi } from "./player.js";
import { forget } from "./seats.js";


/** The control that abandons seat `seat` of `gameId` (with `token`), then runs `done()`. */
export function abandonControl(gameId, seat, token, { before, done, failed }) {
  const box = h("div", { class: "abandon", "data-abandon": "" });
  const ask = () => replace(box, h("p", {}, h("button", { type: "button", class: "link", onclick: confirm }, t("abandon.ask"))));
  function confirm() {
    replace(box, h("div", { class: "row", role: "group", "aria-label": t("abandon.confirm") }, t("abandon.confirm"),
      h("button", { type: "button", "data-abandon-confirm": "", onclick: leave }, t("abandon.yes")),
      h("button", { type: "button", onclick: ask }, t("abandon.no"))));
  }
  async function leave() {
    before?.();
    try {
      await playerApi.abandon(gameId, seat, token);
      forget(gameId);
      done();
    } catch (problem) {
      failed(says(problem));
      ask();
    }
  }
  ask();
  return box;
}
