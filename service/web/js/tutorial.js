// The tutorial (#/tutorial/<name>): a first round against a bot on the tutorial's prepared deal
// (POST /tutorials), played at the ordinary table with the guide above it (guide.js). Its seat
// is kept apart from the seats of ordinary games (not in "Your games"); a tutorial left half
// played is taken up again, a finished one starts anew. Also the lobby's "Learn to play".

import { api, tell } from "./api.js";
import { editionName } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { guide } from "./guide.js";
import { FAMILIES } from "./lesson.js";
import { becomeGuest, currentPlayer } from "./player.js";
import { enterQueue } from "./quickplay.js";
import { playerName, rememberName } from "./seats.js";
import { showTable } from "./table.js";

const KEPT = "loveletter.tutorials";
const QUICK_SEATS = [2, 3, 4];
const BOTS_AFTER = 30; // seconds before bots fill a quick-play table

function kept() {
  try {
    return JSON.parse(localStorage.getItem(KEPT) || "{}");
  } catch {
    return {};
  }
}

function keep(name, entry) {
  try {
    localStorage.setItem(KEPT, JSON.stringify({ ...kept(), [name]: entry }));
  } catch {
    // storage unavailable: this tutorial lasts as long as the page
  }
}

/** The lobby's invitation to learn: one link per tutorial. */
export function learnToPlay() {
  return h("section", { class: "panel learn", id: "learn", "aria-labelledby": "learn-title" },
    h("h2", { id: "learn-title" }, t("tutorial.learn.title")),
    h("p", {}, t("tutorial.learn.text")),
    h("div", { class: "row" }, Object.keys(FAMILIES).map((name, index) =>
      h("a", { class: `button${index ? "" : " primary"}`, href: `#/tutorial/${name}`, "data-tutorial": name },
        t("tutorial.learn.edition", { edition: editionName(name) })))),
    h("p", {}, h("a", { href: "#/rules", "data-rules": "" }, t("lobby.rules"))));
}

/** The learner's seat at a tutorial game: the one kept and still in play, else a new game. */
async function seatFor(name) {
  const found = kept()[name];
  if (found) {
    try {
      const seen = await api.game(found.game, found.token);
      if (seen.game.status === "playing") return found;
    } catch {
      // gone (archived long ago) or not ours any more: start anew
    }
  }
  const created = await api.startTutorial({ tutorial: name, name: playerName() || t("tutorial.learner") });
  const entry = { game: created.game.id, seat: created.seat, token: created.token };
  keep(name, entry);
  return entry;
}

/** Show the tutorial `name` in `root`; returns the function that stops it. */
export async function showTutorial(root, name) {
  const story = await api.tutorial(name);
  const seat = await seatFor(name);
  const notice = h("p", { class: "notice error", role: "alert" });
  const nameInput = h("input", { id: "tutorial-name", maxLength: 40, autocomplete: "nickname", value: playerName() });
  let stopTable = () => {};
  let stopped = false;
  const stop = () => {
    stopped = true;
    stopTable();
  };

  async function playNow() {
    try {
      let player = currentPlayer();
      if (!player) {
        const chosen = nameInput.value.trim();
        if (!chosen) {
          notice.textContent = t("lobby.name.missing");
          nameInput.focus();
          return;
        }
        rememberName(chosen);
        player = await becomeGuest(chosen);
      }
      await enterQueue(player, { edition: story.edition, seats: QUICK_SEATS, bots_after: BOTS_AFTER });
    } catch (problem) {
      tell(notice, problem);
    }
  }

  // The page anew: its game is over, so a new one is dealt.
  const again = () => window.dispatchEvent(new HashChangeEvent("hashchange"));

  const others = Object.keys(FAMILIES).filter((other) => other !== name);
  const actions = () => h("div", { class: "guide-actions", "data-final": "" },
    h("p", {}, t("tutorial.play_now.hint", { edition: editionName(story.edition), seconds: BOTS_AFTER })),
    currentPlayer() ? null : h("div", { class: "field" }, h("label", { for: "tutorial-name" }, t("lobby.name")), nameInput),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", "data-play-now": "", onclick: playNow }, t("tutorial.play_now")),
      h("a", { class: "button", href: `#/rules/${encodeURIComponent(story.edition)}`, "data-rules": "" },
        t("tutorial.rules", { edition: editionName(story.edition) }))),
    notice,
    h("ul", { class: "guide-links" },
      others.map((other) => h("li", {}, h("a", { href: `#/tutorial/${other}` }, t("tutorial.learn.edition", { edition: editionName(other) })))),
      h("li", {}, h("button", { type: "button", class: "link", "data-again": "", onclick: again }, t("tutorial.again"))),
      h("li", {}, h("a", { href: "#/" }, t("app.back_to_lobby")))));

  const coach = guide(story, { actions });
  const tableRoot = h("div", { class: "tutorial-table" });
  replace(root, h("div", { class: "tutorial-page", id: "tutorial", "data-tutorial": name, onclick: (event) => coach.tapped(event) },
    coach.element, tableRoot));
  const stopShown = await showTable(tableRoot, seat.game, {
    held: { seat: seat.seat, token: seat.token },
    vet: coach.vet,
    onChange: coach.update,
  });
  if (stopped) stopShown?.();
  else stopTable = stopShown || (() => {});
  return () => stop();
}
