// "My games" (#/me): the games of this browser's player, the ones waiting on them first, kept
// up to date live from the player's inbox (an EventSource opened with a short-lived ticket;
// the player's token never goes in a URL). Without a player: play as a guest, or take the
// player of another device with its transfer code.

import { says } from "./api.js";
import { gameName, seatNames } from "./cards.js";
import { h, replace } from "./dom.js";
import { formatDateTime, t } from "./i18n.js";
import { becomeGuest, currentPlayer, forgetPlayer, playerApi, redeem } from "./player.js";

const MAX_PAUSE_MS = 5000;

const when = (iso) => formatDateTime(Date.parse(iso));

/** Show "my games" in `root`; returns the function that stops its live updates. */
export async function showMyGames(root) {
  document.title = t("app.title", { page: t("mygames.title") });
  const player = currentPlayer();
  if (!player) {
    replace(root, guestForms(() => showMyGames(root).then((stop) => (stopInner = stop))));
    let stopInner = null;
    return () => stopInner?.();
  }
  const notice = h("p", { class: "notice error", role: "alert" });
  const status = h("p", { class: "muted small", "data-live": "", "aria-live": "polite" });
  const list = h("ul", { class: "my-games", id: "my-games", "aria-label": t("mygames.title") });
  const transferBox = h("p", { class: "muted", "data-transfer": "" });
  replace(root, h("section", { class: "panel", "aria-labelledby": "me-title" },
    h("h1", { id: "me-title" }, t("mygames.title")),
    h("p", {}, t("mygames.you_are", { name: player.name }), " ",
      h("button", { type: "button", class: "link", onclick: transfer }, t("mygames.transfer")), " ",
      h("a", { href: "#/settings/notifications" }, t("settings.title")), " ",
      h("button", { type: "button", class: "link", onclick: signOut }, t("mygames.sign_out"))),
    transferBox, notice, status, list,
    h("p", {}, h("a", { href: "#/" }, t("app.nav.lobby")))));

  async function transfer() {
    try {
      const made = await playerApi.transferCode(player.token);
      transferBox.textContent = t("mygames.transfer_code", { code: made.code, minutes: Math.round(made.expires_in / 60) });
    } catch (problem) {
      notice.textContent = says(problem);
    }
  }

  async function signOut() {
    if (!window.confirm(t("mygames.sign_out_confirm", { name: player.name }))) return;
    try {
      await playerApi.signOut(player.token);
    } catch (problem) {
      if (problem?.status !== 401) {  // already dead elsewhere: forget it here too
        notice.textContent = says(problem);
        return;
      }
    }
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
          replace(list, page.games.length ? page.games.map(gameItem) : h("li", { class: "muted" }, t("mygames.none")));
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
    onState: (live) => (status.textContent = live ? t("mygames.live") : t("mygames.paused")),
  });
  return stop;
}

function gameItem(game) {
  const names = seatNames(game.seats);
  let state;
  if (game.left) state = t("mygames.left");
  else if (game.status === "open") state = t("mygames.open");
  else if (game.status === "over") state = t("mygames.over");
  else if (game.my_turn) state = t("mygames.your_turn");
  else state = t("mygames.waiting_on", { name: names[game.to_play] ?? "…" });
  return h("li", { class: `my-game${game.my_turn ? " yours" : ""}`, "data-game": game.id, "data-my-turn": game.my_turn ? "true" : "false", "data-to-play": game.to_play ?? "", "data-version": game.version },
    h("a", { href: `#/games/${encodeURIComponent(game.id)}`, "aria-label": t("mygames.open_game", { game: gameName(game) }) },
      h("strong", {}, gameName(game))),
    " ",
    h("span", { class: game.my_turn ? "turn yours" : "turn", "data-state": "" }, state),
    game.last_move_at ? h("span", { class: "muted small" }, ` · ${t("mygames.last_move", { when: when(game.last_move_at) })}`) : null,
    game.deadline && game.my_turn ? h("span", { class: "muted small" }, ` · ${t("mygames.deadline", { when: when(game.deadline) })}`) : null);
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
      h("h1", { id: "guest-title" }, t("mygames.guest_title")),
      h("p", { class: "muted" }, t("mygames.guest_help")),
      h("div", { class: "field" }, h("label", { for: "guest-name" }, t("mygames.name")), name),
      h("button", { type: "submit", class: "primary" }, t("mygames.start"))),
    h("form", { class: "panel", id: "redeem", "aria-labelledby": "redeem-title", onsubmit: act(() => redeem(code.value.trim())) },
      h("h2", { id: "redeem-title" }, t("mygames.code_title")),
      h("p", { class: "muted" }, t("mygames.code_help")),
      h("div", { class: "field" }, h("label", { for: "transfer-code" }, t("mygames.code")), code),
      h("button", { type: "submit" }, t("mygames.use_code"))),
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
