// The table: the game as your seat (or a spectator) sees it, your moves, the log, the rounds,
// and the waiting room before the start. Kept up to date by live.js.

import { allEvents, api, tell } from "./api.js";
import { board, chip, reference, seatList, turnPhrase } from "./board.js";
import { botAliases, cardWords, editionName, gameName, seatNames } from "./cards.js";
import { h, holdsFocus, listing, replace } from "./dom.js";
import { logPanel } from "./logview.js";
import { stepAddress } from "./turns.js";
import { follow } from "./live.js";
import { formatDuration, t } from "./i18n.js";
import { composer } from "./moves.js";
import { roundsPanel } from "./rounds.js";
import { abandonControl } from "./abandon.js";
import { chatPanel } from "./chat.js";
import { playerToken } from "./player.js";
import { notePresence } from "./presence.js";
import { forget, seatAt } from "./seats.js";
import { logLines, roundSummaries } from "./words.js";

const RETRY_MS = 1000;

const PRESENCE_MS = 30000; // how often a quiet table looks again (presence marks)

/** A fresh Idempotency-Key (randomUUID needs a secure context; getRandomValues does not). */
function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function inviteLink(gameId) {
  return `${location.origin}/#/join/${encodeURIComponent(gameId)}`;
}

/** The seat this browser's player holds at a game it has no seat token of (one taken on
 * another device, or through the API), with the player's token acting for it; or null. */
async function playersSeat(gameId) {
  const token = playerToken();
  if (!token) return null;
  try {
    const seen = await api.game(gameId, token);
    return seen.view && seen.view.you !== null ? { seat: seen.view.you, token } : null;
  } catch {
    return null; // not a seat of this player's: watch
  }
}

/** Show game `gameId` in `root`; returns the function that stops its live updates.
 *  Options (the tutorial's guide uses them; docs/tutorial.md): `held`, the seat and token to
 *  play as; `vet(command)`, asked before a move is sent (false: not sent); `onChange({data,
 *  events, you})`, told after every drawing of the table. */
export async function showTable(root, gameId, { held: given = null, vet = null, onChange = null } = {}) {
  let held = given ?? seatAt(gameId) ?? (await playersSeat(gameId));
  let data;
  try {
    data = await api.game(gameId, held?.token);
  } catch (problem) {
    if (held && (problem.status === 401 || problem.status === 403)) {
      forget(gameId); // a token this game does not know: look as a spectator
      held = null;
      data = await api.game(gameId, null);
    } else throw problem;
  }
  const token = held?.token ?? null;
  const you = held ? held.seat : null;
  const events = await allEvents(gameId, token);
  let composedFor = null; // the version and legal moves the move controls were built for
  let moveControls = null;
  let confirmingForfeit = false;
  let drawn = null; // the view the board shows: cards new since then arrive with a motion

  const header = h("section", { class: "panel table-head", "aria-labelledby": "game-title" });
  const waiting = h("div");
  const over = h("div");
  const boardArea = h("div", { "data-board": "" });
  const handArea = h("div");
  const knownArea = h("div");
  const notice = h("p", { class: "notice error", role: "alert", id: "notice" });
  const moves = h("section", { class: "panel moves", id: "moves", "data-part": "move", "aria-labelledby": "moves-title" });
  const actions = h("div", { class: "seat-actions" });
  const announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
  const log = logPanel({ label: t("log.label") });
  const rounds = h("div");
  // A spectator with a player's token chats as that player, where the table lets spectators in.
  const chatToken = token ?? (data.game.spectator_chat ? playerToken() : null);
  const chat = chatPanel(gameId, { token: chatToken, you, game: data.game });
  const page = h("div", { class: "table-page", id: "table" },
    h("div", { class: "stack" }, header, notice, over, waiting, boardArea, you !== null ? moves : null, knownArea, actions),
    h("div", { class: "side" },
      log.element, announcer,
      chat?.element,
      rounds,
      reference(data.game.edition)));
  replace(root, page);

  function render() {
    const game = data.game;
    const view = data.view;
    const hadFocus = holdsFocus(moves) || holdsFocus(handArea);
    notePresence(game);
    page.dataset.version = game.version;
    page.dataset.status = game.status;
    const names = seatNames(game.seats);
    const edition = game.edition;
    const turn = turnPhrase(view, you, names);
    if (root.isConnected) {
      document.title = t("table.page_title", { yours: view && view.current === you && you !== null ? "yes" : "no", edition: editionName(game.edition) });
    }

    replace(header,
      // On a phone the heading is the edition alone: the players sit on the table just below.
      h("h1", { id: "game-title" }, h("span", { class: "long-title" }, gameName(game)),
        h("span", { class: "short-title" }, editionName(game.edition))),
      h("div", { class: "status-line" },
        h("span", { class: `turn${view && view.current === you && you !== null ? " yours" : ""}`, "data-turn": "" }, turn),
        h("span", { class: `muted settings${game.turn_seconds ? "" : " untimed"}` }, t("table.settings", {
          edition: editionName(game.edition), seats: game.seats.length, timed: game.turn_seconds ? "yes" : "no",
          time: game.turn_seconds ? formatDuration(game.turn_seconds) : "",
        })),
        h("span", { class: "muted you-are" }, t("table.you", { watching: you === null ? "yes" : "no", name: you !== null ? names[you] : "" })),
        h("span", { class: "row" },
          h("a", { href: `#/games/${encodeURIComponent(game.id)}/replay` }, t("table.replay")),
          h("a", { href: "#/" }, t("app.nav.lobby")))));

    replace(waiting, game.status === "open" ? waitingRoom(game) : null);
    replace(over, view && view.phase === "over" ? gameOver(game, view) : null);
    const composed = you !== null && renderMoves(game, view);
    drawBoard();
    if (moveControls && !holdsFocus(moves) && !holdsFocus(handArea)) {
      if (hadFocus) moveControls.focus();
      else if (composed && document.activeElement === document.body) moveControls.focus({ preventScroll: true });
    }

    const lines = logLines(events, { edition, names, aliases: botAliases(game.seats) });
    log.show(lines.map((line) => h("li", { class: line.kind, "data-version": line.version }, line.text)));
    announcer.textContent = lines.at(-1)?.text || "";
    replace(rounds, roundsPanel(roundSummaries(events), {
      edition, names, href: (round) => `#/games/${encodeURIComponent(gameId)}/replay/${stepAddress(round)}`,
    }));
    onChange?.({ data, events, you });
  }

  /** The table, your hand and what you know, with the move's choices among them. */
  function drawBoard() {
    const view = data.view;
    const parts = view ? board(view, data.game, { you, before: drawn, asking: moveControls?.asking() }) : {};
    drawn = view;
    replace(boardArea, parts.table);
    replace(handArea, parts.hand);
    replace(knownArea, parts.known);
  }

  /** The move's controls for this version; whether they were made anew. */
  function renderMoves(game, view) {
    const shape = `${game.version} ${confirmingForfeit} ${JSON.stringify(data.legal)}`;
    if (composedFor === shape) return false;
    composedFor = shape;
    const playing = view && view.phase === "round" && game.status === "playing";
    const parts = [h("h2", { id: "moves-title" }, t("moves.title", { yours: data.legal.length ? "yes" : "no" }))];
    const controls = [];
    if (data.legal.length) {
      moveControls = composer(data.legal, { edition: game.edition, players: seatNames(game.seats), you },
        { send, changed: drawBoard, out: data.puts_you_out || [], root: page });
      parts.push(moveControls.element);
    } else {
      moveControls = null;
      parts.push(h("p", { class: "muted", "data-waiting": "" },
        t("moves.waiting", { state: view ? (view.phase === "over" ? "over" : "playing") : "open", turn: view ? turnPhrase(view, you, seatNames(game.seats)) : "" })));
    }
    const mine = view?.seats[you];
    if (playing && mine && !mine.forfeited) {
      controls.push(confirmingForfeit
        ? h("div", { class: "row" }, t("forfeit.question"),
          h("button", { type: "button", "data-forfeit-confirm": "", onclick: () => { confirmingForfeit = false; send({ type: "forfeit" }); } }, t("forfeit.yes")),
          h("button", { type: "button", onclick: () => { confirmingForfeit = false; render(); } }, t("forfeit.no")))
        : h("p", {}, h("button", { type: "button", class: "link", "data-forfeit": "", onclick: () => { confirmingForfeit = true; render(); } }, t("forfeit.ask"))));
      controls.push(abandonControl(gameId, you, token, {
        before: () => stop(),
        done: () => (location.hash = "#/me"),
        failed: (text) => { notice.textContent = text; startFollowing(); },
      }));
    }
    replace(moves, parts, handArea);
    replace(actions, controls);
    return true;
  }

  function waitingRoom(game) {
    const open = game.seats.filter((seat) => seat.open).length;
    const link = inviteLink(game.id);
    const copy = h("button", {
      type: "button",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          copy.textContent = t("waiting.copied");
        } catch {
          input.select();
        }
      },
    }, t("waiting.copy"));
    const input = h("input", { id: "invite", readOnly: true, value: link, size: 40 });
    return h("section", { class: "panel", "aria-labelledby": "waiting-title" },
      h("h2", { id: "waiting-title" }, t("waiting.title", { count: open })),
      seatList(game),
      h("div", { class: "field" }, h("label", { for: "invite" }, t("waiting.link")),
        h("div", { class: "row" }, input, copy)),
      you !== null
        ? h("button", { type: "button", onclick: leave }, t("waiting.leave"))
        : h("a", { class: "button primary", href: `#/join/${encodeURIComponent(game.id)}` }, t("invitation.take")));
  }

  function gameOver(game, view) {
    const names = seatNames(game.seats);
    const who = (seat) => names[seat];
    const winners = view.game_winners;
    return h("section", { class: "panel game-over", id: "game-over", "aria-labelledby": "over-title", "data-game-over": "" },
      h("h2", { id: "over-title" }, t("over.title", { count: winners.length, winners: listing(winners.map(who)) })),
      h("ul", {}, view.seats.map((seat) => h("li", {}, t("over.tokens", { name: who(seat.seat), tokens: seat.tokens }),
        view.hands ? [" ", t("over.last_hand"), " ", view.hands[seat.seat].length ? view.hands[seat.seat].map((id) => chip(game.edition, id)) : t("seat.hand.none")] : ""))),
      h("div", { class: "row" },
        h("a", { class: "button", href: `#/games/${encodeURIComponent(game.id)}/replay` }, t("over.replay")),
        you !== null && !game.tutorial ? h("button", { type: "button", onclick: rematch }, t("over.again")) : null));
  }

  async function send(command) {
    if (vet && !vet(command)) {
      composedFor = null; // the move controls again, as they were before this move
      render();
      return;
    }
    try {
      apply(await api.command(gameId, token, data.game.version, newKey(), command));
      notice.textContent = "";
    } catch (problem) {
      tell(notice, problem, cardWords(data.game.edition));
      composedFor = null;
      await refresh();
    }
  }

  async function leave() {
    stop(); // the seat's token is about to stop working
    try {
      await api.leave(gameId, you, token);
      forget(gameId);
      location.hash = "#/";
    } catch (problem) {
      tell(notice, problem);
      startFollowing();
    }
  }

  async function rematch() {
    try {
      apply(await api.rematch(gameId, token));
    } catch (problem) {
      tell(notice, problem);
    }
  }

  function apply(newer) {
    if (newer.game.version < data.game.version) return;
    data = newer;
    render();
  }

  let refreshing = null;
  let again = false;
  async function refresh() {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          apply(await api.game(gameId, token));
        } catch (problem) {
          tell(notice, problem);
          const passing = !problem.status || problem.status >= 500; // worth another look
          if (passing && root.isConnected) setTimeout(refresh, RETRY_MS);
        }
      } while (again);
    })().finally(() => (refreshing = null));
    return refreshing;
  }

  let stop = () => {};
  function startFollowing() {
    stop = follow(gameId, {
      token,
      after: data.game.version, // the view's: events read after it may be newer than the view
      onChat: chat?.hear,
      chatAfter: chat?.lastId,
      onEvents: (news) => {
        const last = events.length ? events.at(-1).version : 0;
        events.push(...news.filter((event) => event.version > last));
        refresh();
      },
      onTrouble: (problem) => {
        if (problem) {
          tell(notice, problem);
          notice.textContent = t("live.paused", { problem: notice.textContent });
          notice.dataset.paused = "";
        } else if ("paused" in notice.dataset) {
          notice.textContent = "";
          delete notice.dataset.paused;
        }
      },
    });
  }

  render();
  startFollowing();
  const presenceTimer = setInterval(() => root.isConnected && refresh(), PRESENCE_MS); // quiet tables too
  return () => {
    clearInterval(presenceTimer);
    chat?.stop();
    stop();
  };
}
