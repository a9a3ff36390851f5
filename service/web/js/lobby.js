// The lobby: your name, a new game's settings, the open games (edition, seats, who is in) to
// join or leave, your games, and games to watch or replay. And the invitation page.

import { api, says } from "./api.js";
import { seatList } from "./board.js";
import { botKinds, edition as editionOf, editions } from "./cards.js";
import { h, replace } from "./dom.js";
import { playerToken } from "./player.js";
import { forget, heldSeats, playerName, remember, rememberName, seatAt } from "./seats.js";

const REFRESH_MS = 4000;
const TURN_TIMES = [[0, "No limit"], [30, "30 seconds"], [60, "1 minute"], [300, "5 minutes"], [3600, "1 hour"], [86400, "1 day"]];

/** The name field every lobby action uses (remembered in this browser). */
function nameField(id = "player-name") {
  const input = h("input", {
    id, name: "name", autocomplete: "nickname", maxLength: 40, required: true, value: playerName(),
    oninput: () => rememberName(input.value.trim()),
  });
  return { input, element: h("div", { class: "field" }, h("label", { for: id }, "Your name"), input) };
}

function nameOrComplain(input, notice) {
  const name = input.value.trim();
  if (!name) {
    notice.textContent = "Choose a name first (1 to 40 characters).";
    input.focus();
    return null;
  }
  rememberName(name);
  return name;
}

function createForm(name, notice) {
  const editionSelect = h("select", { id: "edition", name: "edition" },
    editions().map((e) => h("option", { value: e.id }, `${e.id} (${e.min_players}–${e.max_players} players)`)));
  const countSelect = h("select", { id: "seat-count", name: "seats" });
  const seatsBox = h("div", { class: "seat-choices" });
  const timeSelect = h("select", { id: "turn-time", name: "turn_seconds" },
    TURN_TIMES.map(([seconds, text]) => h("option", { value: seconds }, text)));
  const timeoutSelect = h("select", { id: "on-timeout", name: "on_timeout" },
    h("option", { value: "bot" }, "a bot moves for the late seat"),
    h("option", { value: "forfeit" }, "the late seat gives up"));

  function seatSelect(index, value) {
    const id = `seat-${index}`;
    return h("div", { class: "field" },
      h("label", { for: id }, `Seat ${index + 1}`),
      h("select", { id, "data-seat-kind": index },
        ["human", ...botKinds()].map((kind) => h("option", { value: kind, selected: kind === value }, kind === "human" ? "human" : `${kind} bot`))));
  }

  function layoutSeats() {
    const chosen = editionOf(editionSelect.value);
    const previous = [...seatsBox.querySelectorAll("select")].map((select) => select.value);
    const count = Math.min(Math.max(Number(countSelect.value) || chosen.min_players, chosen.min_players), chosen.max_players);
    replace(countSelect, Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => {
      const n = chosen.min_players + i;
      return h("option", { value: n, selected: n === count }, `${n} players`);
    }));
    replace(seatsBox, Array.from({ length: count }, (_, i) => seatSelect(i, previous[i] || (i === 0 ? "human" : "heuristic"))));
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
      notice.textContent = says(problem);
    }
  }

  return h("form", { class: "panel", id: "create", "aria-labelledby": "create-title", onsubmit: create },
    h("h2", { id: "create-title" }, "New game"),
    h("div", { class: "field" }, h("label", { for: "edition" }, "Edition"), editionSelect),
    h("div", { class: "field" }, h("label", { for: "seat-count" }, "Players"), countSelect),
    h("fieldset", {}, h("legend", {}, "Who sits at each seat"), seatsBox,
      h("p", { class: "muted small" }, "You take the first human seat; friends take the others.")),
    h("div", { class: "field" }, h("label", { for: "turn-time" }, "Time for each move"), timeSelect),
    h("div", { class: "field" }, h("label", { for: "on-timeout" }, "When time runs out"), timeoutSelect),
    h("button", { type: "submit", class: "primary" }, "Create the game"));
}

async function join(gameId, name, notice) {
  try {
    const taken = await api.join(gameId, name, playerToken());
    remember(gameId, { seat: taken.seat, token: taken.token, name });
    location.hash = `#/games/${encodeURIComponent(gameId)}`;
  } catch (problem) {
    notice.textContent = says(problem);
  }
}

async function leave(gameId, notice, done) {
  const held = seatAt(gameId);
  try {
    await api.leave(gameId, held.seat, held.token);
    forget(gameId);
    done();
  } catch (problem) {
    notice.textContent = says(problem);
  }
}

/** Show the lobby; returns the function that stops its refreshing. */
export async function showLobby(root) {
  const notice = h("p", { class: "notice error", role: "alert" });
  const name = nameField();
  const openList = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, "Loading…"));
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
    if (state === shown) return;
    shown = state;
    const games = tables.filter(Boolean);
    replace(openList, games.length
      ? h("ul", { class: "games" }, games.map((game) => openGame(game)))
      : h("p", { class: "muted" }, "No game is waiting for players. Create one!"));
    renderMine();
    replace(others,
      gameLinks("Being played", playing.games, "Watch"),
      gameLinks("Finished", over.games, "Replay"));
  }

  function openGame(game) {
    const held = seatAt(game.id);
    const humanOpen = game.seats.some((seat) => seat.open && !seat.bot);
    return h("li", { "data-game": game.id },
      h("div", { class: "row" }, h("strong", {}, game.edition),
        h("span", { class: "muted small" }, `${game.seats.length - game.open_seats} of ${game.seats.length} seats taken · game ${game.id}`)),
      seatList(game),
      h("div", { class: "row" },
        held
          ? [h("a", { class: "button", href: `#/games/${encodeURIComponent(game.id)}` }, "Open the table"),
            h("button", { type: "button", "aria-label": `Leave game ${game.id}`, onclick: () => leave(game.id, notice, () => { shown = ""; load(); }) }, "Leave")]
          : humanOpen
            ? h("button", {
              type: "button", class: "primary", "aria-label": `Join game ${game.id}`,
              onclick: () => {
                const chosen = nameOrComplain(name.input, notice);
                if (chosen) join(game.id, chosen, notice);
              },
            }, "Join")
            : null));
  }

  function renderMine() {
    const held = Object.entries(heldSeats()).sort((a, b) => b[1].at - a[1].at).slice(0, 10);
    replace(mine, h("section", { class: "panel", "aria-labelledby": "mine-title" },
      h("h2", { id: "mine-title" }, "Your games"),
      held.length
        ? h("ul", {}, held.map(([id, seat]) => h("li", {},
          h("a", { href: `#/games/${encodeURIComponent(id)}` }, `${seat.edition || "game"} ${id}`),
          ` as ${seat.name} · `, h("a", { href: `#/games/${encodeURIComponent(id)}/replay`, "aria-label": `Replay game ${id}` }, "replay"))))
        : h("p", { class: "muted" }, "Games you create or join are kept in this browser.")));
  }

  function gameLinks(title, games, verb) {
    return h("section", { class: "panel" }, h("h2", {}, title),
      games.length
        ? h("ul", {}, games.map((game) => h("li", {},
          `${game.edition}, ${game.players} players · `,
          h("a", { href: `#/games/${encodeURIComponent(game.id)}${verb === "Replay" ? "/replay" : ""}`, "aria-label": `${verb} game ${game.id}` }, verb),
          verb === "Watch" ? [" · ", h("a", { href: `#/games/${encodeURIComponent(game.id)}/replay`, "aria-label": `Replay game ${game.id}` }, "replay")] : null)))
        : h("p", { class: "muted" }, "None."));
  }

  replace(root, h("div", { class: "lobby", id: "lobby" },
    h("div", { class: "name" }, h("h1", {}, "Lobby"), h("div", { class: "panel" }, name.element), notice),
    h("section", { class: "panel open", "aria-labelledby": "open-title" }, h("h2", { id: "open-title" }, "Open games"), openList),
    h("div", { class: "create" }, createForm(name.input, notice)),
    mine, others));
  document.title = "Love Letter — Lobby";
  await load();
  const timer = setInterval(() => load().catch((problem) => (notice.textContent = says(problem))), REFRESH_MS);
  return () => clearInterval(timer);
}

/** The invitation page: take an open seat at a friend's game. */
export async function showInvitation(root, gameId) {
  const { game } = await api.game(gameId, seatAt(gameId)?.token);
  const notice = h("p", { class: "notice error", role: "alert" });
  const name = nameField();
  const openSeats = game.seats.filter((seat) => seat.open && !seat.bot);
  document.title = "Love Letter — Invitation";
  let body;
  if (seatAt(gameId)) {
    body = h("p", {}, "You already sit at this game. ", h("a", { href: `#/games/${encodeURIComponent(gameId)}` }, "Open the table"));
  } else if (game.status !== "open" || !openSeats.length) {
    body = h("p", {}, "Every seat is taken. ", h("a", { href: `#/games/${encodeURIComponent(gameId)}` }, "Watch the game"));
  } else {
    body = h("form", {
      id: "join",
      onsubmit: (event) => {
        event.preventDefault();
        const chosen = nameOrComplain(name.input, notice);
        if (chosen) join(gameId, chosen, notice);
      },
    }, name.element, h("button", { type: "submit", class: "primary" }, "Take a seat"));
  }
  replace(root, h("section", { class: "panel", id: "invitation", "aria-labelledby": "invite-title" },
    h("h1", { id: "invite-title" }, `You are invited to a game of Love Letter (${game.edition})`),
    seatList(game), notice, body));
}
