// The lobby: your name, a new game's settings, the open games (edition, seats, who is in) to
// join or leave, your games, and games to watch or replay. And the invitation page.

import { api, tell } from "./api.js";
import { seatList } from "./board.js";
import { botName, edition as editionOf, editionName, editions, botKinds, gameName } from "./cards.js";
import { h, replace } from "./dom.js";
import { formatDateTime, formatDuration, formatRelative, t } from "./i18n.js";
import { playerToken } from "./player.js";
import { quickPlayForm } from "./quickplay.js";
import { forget, heldSeats, playerName, remember, rememberName, seatAt } from "./seats.js";
import { learnToPlay } from "./tutorial.js";

const REFRESH_MS = 4000;
const TURN_TIMES = [0, 30, 60, 300, 3600, 86400]; // seconds; 0: no limit

/** The name field every lobby action uses (remembered in this browser). */
function nameField(id = "player-name") {
  const input = h("input", {
    id, name: "name", autocomplete: "nickname", maxLength: 40, required: true, value: playerName(),
    oninput: () => rememberName(input.value.trim()),
  });
  return { input, element: h("div", { class: "field" }, h("label", { for: id }, t("lobby.name")), input) };
}

function nameOrComplain(input, notice) {
  const name = input.value.trim();
  if (!name) {
    notice.textContent = t("lobby.name.missing");
    input.focus();
    return null;
  }
  rememberName(name);
  return name;
}

/** A refused join or creation: a name the service refuses gets the name's rule. */
function complain(notice, problem) {
  tell(notice, problem);
  if (problem.slug === "validation-error" && problem.body?.errors?.json?.name) notice.textContent = t("lobby.name.invalid");
}

function createForm(name, notice) {
  const editionSelect = h("select", { id: "edition", name: "edition" },
    editions().map((e) => h("option", { value: e.id },
      t("lobby.edition.option", { edition: editionName(e.id), min: e.min_players, max: e.max_players }))));
  const countSelect = h("select", { id: "seat-count", name: "seats" });
  const seatsBox = h("div", { class: "seat-choices" });
  const timeSelect = h("select", { id: "turn-time", name: "turn_seconds" },
    TURN_TIMES.map((seconds) => h("option", { value: seconds }, seconds ? formatDuration(seconds) : t("lobby.time.none"))));
  const timeoutSelect = h("select", { id: "on-timeout", name: "on_timeout" },
    h("option", { value: "bot" }, t("lobby.timeout.bot")),
    h("option", { value: "forfeit" }, t("lobby.timeout.forfeit")));

  function seatSelect(index, value) {
    const id = `seat-${index}`;
    return h("div", { class: "field" },
      h("label", { for: id }, t("lobby.seat", { number: index + 1 })),
      h("select", { id, "data-seat-kind": index },
        ["human", ...botKinds()].map((kind) => h("option", { value: kind, selected: kind === value },
          kind === "human" ? t("lobby.seat.human") : botName(kind)))));
  }

  function layoutSeats() {
    const chosen = editionOf(editionSelect.value);
    const previous = [...seatsBox.querySelectorAll("select")].map((select) => select.value);
    const count = Math.min(Math.max(Number(countSelect.value) || chosen.min_players, chosen.min_players), chosen.max_players);
    replace(countSelect, Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => {
      const n = chosen.min_players + i;
      return h("option", { value: n, selected: n === count }, t("lobby.players.option", { count: n }));
    }));
    replace(seatsBox, Array.from({ length: count }, (_, i) => seatSelect(i, previous[i] || (i === 0 ? "human" : "medium"))));
  }

  editionSelect.addEventListener("change", layoutSeats);
  countSelect.addEventListener("change", layoutSeats);
  layoutSeats();

  async function create(event) {
    event.preventDefault();
    const seats = [...seatsBox.querySelectorAll("select")].map((select) => select.value);
    const body = { edition: editionSelect.value, seats, on_timeout: timeoutSelect.value };
    const seconds = Number(timeSelect.value);
    if (seconds) body.turn_seconds = seconds;
    if (seats.includes("human")) {
      const chosen = nameOrComplain(name, notice);
      if (!chosen) return;
      body.name = chosen;
    }
    try {
      const created = await api.create(body, playerToken());
      if (created.token) {
        remember(created.game.id, { seat: created.seat, token: created.token, name: body.name, edition: body.edition });
      }
      location.hash = `#/games/${encodeURIComponent(created.game.id)}`;
    } catch (problem) {
      complain(notice, problem);
    }
  }

  return h("form", { class: "panel", id: "create", "aria-labelledby": "create-title", onsubmit: create },
    h("h2", { id: "create-title" }, t("lobby.create.title")),
    h("div", { class: "field" }, h("label", { for: "edition" }, t("lobby.edition")), editionSelect),
    h("div", { class: "field" }, h("label", { for: "seat-count" }, t("lobby.players")), countSelect),
    h("fieldset", {}, h("legend", {}, t("lobby.seats.legend")), seatsBox,
      h("p", { class: "muted small" }, t("lobby.seats.hint"))),
    h("div", { class: "field" }, h("label", { for: "turn-time" }, t("lobby.time")), timeSelect),
    h("div", { class: "field" }, h("label", { for: "on-timeout" }, t("lobby.timeout")), timeoutSelect),
    h("button", { type: "submit", class: "primary" }, t("lobby.create")));
}

async function join(gameId, name, notice) {
  try {
    const taken = await api.join(gameId, name, playerToken());
    remember(gameId, { seat: taken.seat, token: taken.token, name });
    location.hash = `#/games/${encodeURIComponent(gameId)}`;
  } catch (problem) {
    complain(notice, problem);
  }
}

async function leave(gameId, notice, done) {
  const held = seatAt(gameId);
  try {
    await api.leave(gameId, held.seat, held.token);
    forget(gameId);
    done();
  } catch (problem) {
    tell(notice, problem);
  }
}

/** "3 minutes ago", with the exact time as a tooltip (nothing for an unknown time). */
function when(milliseconds) {
  if (!Number.isFinite(milliseconds)) return null;
  return h("time", { datetime: new Date(milliseconds).toISOString(), title: formatDateTime(milliseconds), "data-at": milliseconds },
    formatRelative(milliseconds));
}

/** Show the lobby; returns the function that stops its refreshing. */
export async function showLobby(root) {
  const notice = h("p", { class: "notice error", role: "alert" });
  const name = nameField();
  const openList = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, t("app.loading")));
  const mine = h("div", { class: "mine" });
  const others = h("div", { class: "others" });
  let shown = "";

  async function load() {
    const [open, playing, over] = await Promise.all([
      api.lobby({ status: "open", limit: 20 }),
      api.lobby({ status: "playing", limit: 10 }),
      api.lobby({ status: "over", limit: 10 }),
    ]);
    const tables = await Promise.all(open.games.map((game) =>
      api.game(game.id, seatAt(game.id)?.token).then((found) => found.game).catch(() => null)));
    const state = JSON.stringify([tables, playing.games.map((g) => g.id), over.games.map((g) => g.id), heldSeats()]);
    if (state === shown) {
      // Only the times move on: "3 minutes ago" becomes "4 minutes ago", the focus stays put.
      for (const time of root.querySelectorAll("time[data-at]")) time.textContent = formatRelative(Number(time.dataset.at));
      return;
    }
    shown = state;
    const games = tables.filter(Boolean);
    replace(openList, games.length
      ? h("ul", { class: "games" }, games.map((game) => openGame(game)))
      : h("p", { class: "muted" }, t("lobby.open.none")));
    renderMine();
    replace(others,
      gameLinks(t("lobby.playing.title"), playing.games, "watch"),
      gameLinks(t("lobby.over.title"), over.games, "replay"));
  }

  function openGame(game) {
    const held = seatAt(game.id);
    const humanOpen = game.seats.some((seat) => seat.open && !seat.bot);
    return h("li", { "data-game": game.id },
      h("div", { class: "row" }, h("strong", {}, editionName(game.edition)),
        h("span", { class: "muted small" }, t("lobby.open.seats", { taken: game.seats.length - game.open_seats, seats: game.seats.length }))),
      seatList(game),
      h("div", { class: "row" },
        held
          ? [h("a", { class: "button", href: `#/games/${encodeURIComponent(game.id)}` }, t("lobby.open.table")),
            h("button", { type: "button", "aria-label": t("lobby.leave.label", { game: gameName(game) }), onclick: () => leave(game.id, notice, () => { shown = ""; load(); }) }, t("lobby.leave"))]
          : humanOpen
            ? h("button", {
              type: "button", class: "primary", "aria-label": t("lobby.join.label", { game: gameName(game) }),
              onclick: () => {
                const chosen = nameOrComplain(name.input, notice);
                if (chosen) join(game.id, chosen, notice);
              },
            }, t("lobby.join"))
            : null));
  }

  function renderMine() {
    const held = Object.entries(heldSeats()).sort((a, b) => b[1].at - a[1].at).slice(0, 10);
    replace(mine, h("section", { class: "panel", "aria-labelledby": "mine-title" },
      h("h2", { id: "mine-title" }, t("lobby.mine.title")),
      held.length
        ? h("ul", {}, held.map(([id, seat]) => {
          const title = t("lobby.mine.game", { edition: seat.edition ? editionName(seat.edition) : "unknown" });
          return h("li", {},
            h("a", { href: `#/games/${encodeURIComponent(id)}` }, title),
            " ", t("lobby.mine.as", { name: seat.name }), " · ", when(seat.at) && [when(seat.at), " · "],
            h("a", { href: `#/games/${encodeURIComponent(id)}/replay`, "aria-label": t("lobby.replay.label", { game: title }) }, t("lobby.replay")));
        }))
        : h("p", { class: "muted" }, t("lobby.mine.none"))));
  }

  function gameLinks(title, games, action) {
    const line = (game) => t("lobby.game.line", { edition: editionName(game.edition), players: game.players });
    const replayLink = (game) => h("a", { href: `#/games/${encodeURIComponent(game.id)}/replay`, "aria-label": t("lobby.replay.label", { game: line(game) }) }, t("lobby.replay"));
    return h("section", { class: "panel" }, h("h2", {}, title),
      games.length
        ? h("ul", {}, games.map((game) => h("li", {},
          line(game), " · ",
          when(game.updated_at * 1000), " · ",
          action === "watch"
            ? [h("a", { href: `#/games/${encodeURIComponent(game.id)}`, "aria-label": t("lobby.watch.label", { game: line(game) }) }, t("lobby.watch")), " · ", replayLink(game)]
            : replayLink(game))))
        : h("p", { class: "muted" }, t("lobby.none")));
  }

  replace(root, h("div", { class: "lobby", id: "lobby" },
    h("div", { class: "name" }, h("h1", {}, t("lobby.title")), learnToPlay(), h("div", { class: "panel" }, name.element), notice),
    h("section", { class: "panel open", "aria-labelledby": "open-title" }, h("h2", { id: "open-title" }, t("lobby.open.title")), openList),
    h("div", { class: "create" }, quickPlayForm(() => nameOrComplain(name.input, notice), notice), createForm(name.input, notice)),
    mine, others));
  document.title = t("app.title", { page: t("lobby.title") });
  await load();
  const timer = setInterval(() => load().catch((problem) => tell(notice, problem)), REFRESH_MS);
  return () => clearInterval(timer);
}

/** The invitation page: take an open seat at a friend's game. */
export async function showInvitation(root, gameId) {
  const { game } = await api.game(gameId, seatAt(gameId)?.token);
  const notice = h("p", { class: "notice error", role: "alert" });
  const name = nameField();
  const openSeats = game.seats.filter((seat) => seat.open && !seat.bot);
  document.title = t("app.title", { page: t("invitation.title") });
  let body;
  if (seatAt(gameId)) {
    body = h("p", {}, t("invitation.seated"), " ", h("a", { href: `#/games/${encodeURIComponent(gameId)}` }, t("lobby.open.table")));
  } else if (game.status !== "open" || !openSeats.length) {
    body = h("p", {}, t("invitation.full"), " ", h("a", { href: `#/games/${encodeURIComponent(gameId)}` }, t("invitation.watch")));
  } else {
    body = h("form", {
      id: "join",
      onsubmit: (event) => {
        event.preventDefault();
        const chosen = nameOrComplain(name.input, notice);
        if (chosen) join(gameId, chosen, notice);
      },
    }, name.element, h("button", { type: "submit", class: "primary" }, t("invitation.take")));
  }
  replace(root, h("section", { class: "panel", id: "invitation", "aria-labelledby": "invite-title" },
    h("h1", { id: "invite-title" }, t("invitation.heading", { edition: editionName(game.edition) })),
    seatList(game), notice, body));
}
