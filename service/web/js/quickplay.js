// Quick play: the lobby's "Play now" form (edition, number of players, how long to wait before
// bots fill the table) and the waiting page (#/queue/<entry>), which polls the entry (so the
// queue knows the player is still here), can be cancelled, and goes to the table once matched.

import { api, says, tell } from "./api.js";
import { edition as editionOf, editionName, editions } from "./cards.js";
import { h, replace } from "./dom.js";
import { formatDuration, formatList, t } from "./i18n.js";
import { becomeGuest, currentPlayer, playerApi } from "./player.js";
import { remember } from "./seats.js";

const POLL_MS = 2000;
const BOT_WAITS = [0, 15, 30, 60, null]; // seconds; null: people only
const ANY = "any";

/** Enter the queue as `player` ({edition, seats, bots_after}) and go to the entry's page
 *  (the one already waiting, if the player waits already); a problem is thrown. */
export async function enterQueue(player, body) {
  try {
    const entry = await playerApi.enterQueue(player.token, body);
    location.hash = `#/queue/${encodeURIComponent(entry.id)}`;
  } catch (problem) {
    if (problem.slug !== "already-queued" || !problem.body?.entry) throw problem;
    location.hash = `#/queue/${encodeURIComponent(problem.body.entry)}`;
  }
}

/** The "Play now" form; `askName` gives the name a new guest plays under (or null). */
export function quickPlayForm(askName, notice) {
  const editionSelect = h("select", { id: "quick-edition", name: "edition" },
    editions().map((e) => h("option", { value: e.id }, editionName(e.id))));
  const countSelect = h("select", { id: "quick-players", name: "seats" });
  const waitSelect = h("select", { id: "quick-bots", name: "bots_after" },
    BOT_WAITS.map((seconds) => h("option", { value: seconds ?? "", selected: seconds === 30 },
      seconds === null ? t("quick.bots.never") : seconds === 0 ? t("quick.bots.now") : t("quick.bots.after", { time: formatDuration(seconds) }))));

  function layout() {
    const chosen = editionOf(editionSelect.value);
    const counts = Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => chosen.min_players + i);
    replace(countSelect, h("option", { value: ANY }, t("quick.players.any")),
      counts.map((n) => h("option", { value: n }, t("lobby.players.option", { count: n }))));
  }
  editionSelect.addEventListener("change", layout);
  layout();

  // Ranked: people only (no bots, so no wait before them), and the game moves ratings.
  const rankedBox = h("input", { type: "checkbox", id: "quick-ranked", name: "ranked", onchange: rank, "aria-describedby": "quick-ranked-hint" });
  const rankedHint = h("p", { class: "muted small", id: "quick-ranked-hint" }, t("quick.ranked.hint", { games: "…" }));
  const waitChoice = waitSelect.value;
  function rank() {
    waitSelect.disabled = rankedBox.checked;
    waitSelect.value = rankedBox.checked ? "" : waitSelect.dataset.chosen ?? waitChoice;
  }
  waitSelect.addEventListener("change", () => (waitSelect.dataset.chosen = waitSelect.value));
  api.leaderboard(editionSelect.value, { limit: 1 })
    .then((board) => (rankedHint.textContent = t("quick.ranked.hint", { games: board.min_games })))
    .catch(() => {}); // the sentence keeps its "…"

  async function play(event) {
    event.preventDefault();
    let player = currentPlayer();
    try {
      if (!player) {
        const name = askName();
        if (!name) return;
        player = await becomeGuest(name);
      }
      const chosen = editionOf(editionSelect.value);
      const seats = countSelect.value === ANY
        ? Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => chosen.min_players + i)
        : [Number(countSelect.value)];
      const wait = waitSelect.value === "" ? null : Number(waitSelect.value);
      const ranked = rankedBox.checked;
      await enterQueue(player, { edition: chosen.id, seats, ranked, bots_after: ranked ? null : wait });
    } catch (problem) {
      tell(notice, problem);
    }
  }

  return h("form", { class: "panel", id: "quickplay", "aria-labelledby": "quick-title", onsubmit: play },
    h("h2", { id: "quick-title" }, t("quick.title")),
    h("p", { class: "muted small" }, t("quick.hint")),
    h("div", { class: "field" }, h("label", { for: "quick-edition" }, t("lobby.edition")), editionSelect),
    h("div", { class: "field" }, h("label", { for: "quick-players" }, t("lobby.players")), countSelect),
    h("div", { class: "checkbox-field" }, rankedBox, h("label", { for: "quick-ranked" }, t("quick.ranked"))),
    rankedHint,
    h("div", { class: "field" }, h("label", { for: "quick-bots" }, t("quick.bots")), waitSelect),
    h("button", { type: "submit", class: "primary" }, t("quick.play")));
}

/** The waiting page of a quick-play entry; returns the function that stops its polling. */
export async function showQueue(root, entryId) {
  document.title = t("app.title", { page: t("queue.title") });
  const player = currentPlayer();
  if (!player) {
    replace(root, h("section", { class: "panel" }, h("h1", {}, t("queue.title")),
      h("p", {}, t("queue.no_player")), h("p", {}, h("a", { href: "#/" }, t("app.back_to_lobby")))));
    return null;
  }
  const notice = h("p", { class: "notice error", role: "alert" });
  const status = h("p", { id: "queue-status", role: "status", "aria-live": "polite" }, t("queue.waiting"));
  const waited = h("p", { class: "muted small", id: "queue-waited" });
  const cancelButton = h("button", { type: "button", id: "queue-cancel", onclick: cancel }, t("queue.cancel"));
  const actions = h("p", {}, cancelButton);
  const what = h("p", { class: "muted", id: "queue-what" });
  replace(root, h("section", { class: "panel", id: "queue", "aria-labelledby": "queue-title", "aria-busy": "true" },
    h("h1", { id: "queue-title" }, t("queue.title")), what, status, waited, notice, actions));

  let timer = null;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };

  function finished(message) {
    stop();
    root.querySelector("#queue")?.setAttribute("aria-busy", "false");
    status.textContent = message;
    replace(actions, h("a", { class: "button", href: "#/" }, t("app.back_to_lobby")));
  }

  function show(entry) {
    what.textContent = t("queue.what", {
      ranked: entry.ranked ? "yes" : "no",
      edition: editionName(entry.edition),
      seats: formatList(entry.seats, "disjunction"),
      bots: entry.bots_after === null ? t("quick.bots.never") : entry.bots_after === 0 ? t("quick.bots.now") : t("quick.bots.after", { time: formatDuration(entry.bots_after) }),
    });
    if (entry.state === "matched") {
      stop();
      remember(entry.game, { seat: entry.seat, token: entry.token, name: player.name, edition: entry.edition });
      status.textContent = t("queue.matched");
      location.hash = `#/games/${encodeURIComponent(entry.game)}`;
      return;
    }
    if (entry.state === "cancelled") return finished(t("queue.cancelled"));
    if (entry.state === "dropped") return finished(t("queue.dropped"));
    const seconds = Math.max(0, Math.round((Date.now() - Date.parse(entry.entered_at)) / 1000));
    waited.textContent = t("queue.waited", { time: formatDuration(Math.max(1, seconds)) });
  }

  async function poll() {
    if (stopped) return;
    try {
      show(await playerApi.queueEntry(player.token, entryId));
    } catch (problem) {
      notice.textContent = says(problem);
      if (problem.status === 404) return finished(t("queue.gone"));
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  }

  async function cancel() {
    cancelButton.disabled = true;
    try {
      show(await playerApi.cancelQueue(player.token, entryId));
    } catch (problem) {
      if (problem.slug === "queue-entry-matched") {
        show(await playerApi.queueEntry(player.token, entryId));
        return;
      }
      cancelButton.disabled = false;
      tell(notice, problem);
    }
  }

  await poll();
  return stop;
}
