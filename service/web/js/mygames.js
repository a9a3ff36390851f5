// "My games" (#/me): the games of this browser's player, the ones waiting on them first, kept
// up to date live from the player's inbox (an EventSource opened with a short-lived ticket;
// the player's token never goes in a URL). Without a player: play as a guest, or take the
// player of another device with its transfer code.

import { says } from "./api.js";
import { h, replace } from "./dom.js";
import { becomeGuest, currentPlayer, forgetPlayer, playerApi, redeem } from "./player.js";

// Every sentence this page shows, together (a catalogue takes them over later).
const TEXT = {
  title: "My games",
  guestTitle: "Play as a guest",
  guestHelp: "Choose a name: this browser keeps your player, and every game you create or join from now on is yours here.",
  name: "Your name",
  start: "Play as a guest",
  codeTitle: "Already playing on another device?",
  codeHelp: "There, open My games and ask for a transfer code; type it here.",
  code: "Transfer code",
  useCode: "Use the code",
  youAre: (name) => `You play as ${name}.`,
  transfer: "Move to another device…",
  transferCode: (code, minutes) => `Type this code on the other device within ${minutes} minutes: ${code} (it works once; this browser stays signed in).`,
  signOut: "Play as someone else",
  none: "No games yet: create one or join one in the lobby.",
  yourTurn: "Your turn",
  waitingOn: (name) => `Waiting for ${name}`,
  open: "Waiting for players",
  over: "Over",
  left: "You left this game to a bot",
  lastMove: (when) => `last move ${when}`,
  deadline: (when) => `time runs out ${when}`,
  versus: (names) => names.join(" · "),
  live: "Live",
  paused: "Live updates paused; retrying…",
  openGame: "Open",
  lobby: "Lobby",
};
const MAX_PAUSE_MS = 5000;

const when = (iso) => (iso ? new Date(iso).toLocaleString() : "");

/** Show "my games" in `root`; returns the function that stops its live updates. */
export async function showMyGames(root) {
  const player = currentPlayer();
  if (!player) {
    replace(root, guestForms(() => showMyGames(root).then((stop) => (stopInner = stop))));
    let stopInner = null;
    return () => stopInner?.();
  }
  const notice = h("p", { class: "notice error", role: "alert" });
  const status = h("p", { class: "muted small", "data-live": "", "aria-live": "polite" });
  const list = h("ul", { class: "my-games", id: "my-games", "aria-label": TEXT.title });
  const transferBox = h("p", { class: "muted", "data-transfer": "" });
  replace(root, h("section", { class: "panel", "aria-labelledby": "me-title" },
    h("h1", { id: "me-title" }, TEXT.title),
    h("p", {}, TEXT.youAre(player.name), " ",
      h("button", { type: "button", class: "link", onclick: transfer }, TEXT.transfer), " ",
      h("button", { type: "button", class: "link", onclick: signOut }, TEXT.signOut)),
    transferBox, notice, status, list,
    h("p", {}, h("a", { href: "#/" }, TEXT.lobby))));

  async function transfer() {
    try {
      const made = await playerApi.transferCode(player.token);
      transferBox.textContent = TEXT.transferCode(made.code, Math.round(made.expires_in / 60));
    } catch (problem) {
      notice.textContent = says(problem);
    }
  }

  function signOut() {
    forgetPlayer();
    stop();
    showMyGames(root);
  }

  let loading = null;
  let again = false;
  async function load() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      do {
        again = false;
        try {
          const page = await playerApi.games(player.token);
          replace(list, page.games.length ? page.games.map(gameItem) : h("li", { class: "muted" }, TEXT.none));
          notice.textContent = "";
        } catch (problem) {
          notice.textContent = says(problem);
        }
      } while (again);
    })().finally(() => (loading = null));
    return loading;
  }

  await load();
  const stop = followInbox(player.token, {
    onEntry: () => load(),
    onState: (live) => (status.textContent = live ? TEXT.live : TEXT.paused),
  });
  return stop;
}

function gameItem(game) {
  const names = game.seats.map((seat) => seat.name || "…");
  let state;
  if (game.left) state = TEXT.left;
  else if (game.status === "open") state = TEXT.open;
  else if (game.status === "over") state = TEXT.over;
  else if (game.my_turn) state = TEXT.yourTurn;
  else state = TEXT.waitingOn(names[game.to_play] ?? "…");
  return h("li", { class: `my-game${game.my_turn ? " yours" : ""}`, "data-game": game.id, "data-my-turn": game.my_turn ? "true" : "false", "data-to-play": game.to_play ?? "", "data-version": game.version },
    h("a", { href: `#/games/${encodeURIComponent(game.id)}`, "aria-label": `${TEXT.openGame} ${game.edition} ${TEXT.versus(names)}` },
      h("strong", {}, TEXT.versus(names))),
    " ",
    h("span", { class: "muted" }, game.edition),
    " ",
    h("span", { class: game.my_turn ? "turn yours" : "turn", "data-state": "" }, state),
    game.last_move_at ? h("span", { class: "muted small" }, ` · ${TEXT.lastMove(when(game.last_move_at))}`) : null,
    game.deadline && game.my_turn ? h("span", { class: "muted small" }, ` · ${TEXT.deadline(when(game.deadline))}`) : null);
}

function guestForms(done) {
  const notice = h("p", { class: "notice error", role: "alert" });
  const name = h("input", { id: "guest-name", required: true, maxLength: 40, autocomplete: "nickname" });
  const code = h("input", { id: "transfer-code", required: true, maxLength: 100, autocomplete: "off" });
  const act = (work) => async (event) => {
    event.preventDefault();
    try {
      await work();
      done();
    } catch (problem) {
      notice.textContent = says(problem);
    }
  };
  return h("div", { class: "stack" },
    h("form", { class: "panel", id: "guest", "aria-labelledby": "guest-title", onsubmit: act(() => becomeGuest(name.value.trim())) },
      h("h1", { id: "guest-title" }, TEXT.guestTitle),
      h("p", { class: "muted" }, TEXT.guestHelp),
      h("div", { class: "field" }, h("label", { for: "guest-name" }, TEXT.name), name),
      h("button", { type: "submit", class: "primary" }, TEXT.start)),
    h("form", { class: "panel", id: "redeem", "aria-labelledby": "redeem-title", onsubmit: act(() => redeem(code.value.trim())) },
      h("h2", { id: "redeem-title" }, TEXT.codeTitle),
      h("p", { class: "muted" }, TEXT.codeHelp),
      h("div", { class: "field" }, h("label", { for: "transfer-code" }, TEXT.code), code),
      h("button", { type: "submit" }, TEXT.useCode)),
    notice);
}

/** Follow the player's inbox: `onEntry(entry)` for each new entry, `onState(live)` as the
 * connection comes and goes; reconnects with a fresh ticket, after the last entry it had. */
function followInbox(token, { onEntry, onState }) {
  let source = null;
  let stopped = false;
  let last = null;
  let pause = 0;

  async function open() {
    if (stopped) return;
    try {
      const ticket = await playerApi.inboxTicket(token);
      if (stopped) return;
      const query = new URLSearchParams({ ticket: ticket.ticket });
      if (last) query.set("after", last);
      source = new EventSource(`/players/me/stream?${query}`);
    } catch {
      retry();
      return;
    }
    source.onopen = () => {
      pause = 0;
      onState(true);
    };
    source.onmessage = (message) => {
      last = message.lastEventId || last;
      onEntry(JSON.parse(message.data));
    };
    source.onerror = () => {
      onState(false);
      if (source?.readyState === EventSource.CLOSED) {
        source = null;
        retry();
      }
    };
  }

  function retry() {
    if (stopped) return;
    pause = Math.min(pause ? pause * 2 : 500, MAX_PAUSE_MS);
    setTimeout(open, pause);
  }

  open();
  return () => {
    stopped = true;
    source?.close();
  };
}
