// Live updates of one game, from its event stream (Server-Sent Events): the only place that
// knows how news arrives. A seat opens its stream with a short-lived ticket (its token never
// goes in a URL); the browser reconnects by itself, resuming after the last event it had.

import { api, NetworkError } from "./api.js";

const MAX_PAUSE_MS = 5000;

/**
 * Call `onEvents(events)` with every event after version `after`, as they happen, until the
 * returned function is called. `onTrouble(error)` hears of failures (it retries by itself),
 * and `onTrouble(null)` of the recovery. With `onChat`, each chat message the stream carries
 * (`chat` events: no id, so they never move the version it resumes from) after `chatAfter()`.
 */
export function follow(gameId, { token, after, onEvents, onTrouble, onChat, chatAfter }) {
  let version = after;
  let source = null;
  let stopped = false;
  let troubled = false;
  let pause = 0;

  const deliver = (events) => {
    const fresh = events.filter((event) => event.version > version);
    if (!fresh.length) return;
    version = fresh.at(-1).version;
    onEvents(fresh);
  };

  const stop = () => {
    stopped = true;
    source?.close();
    source = null;
  };

  const trouble = (error) => {
    if (stopped) return;
    troubled = true;
    onTrouble?.(error);
    pause = Math.min(pause ? pause * 2 : 500, MAX_PAUSE_MS);
    setTimeout(open, pause);
  };

  async function open() {
    if (stopped) return;
    try {
      // What happened while no stream was open; a game that is over has nothing to follow.
      const page = await api.events(gameId, token, { after: version });
      deliver(page.events);
      const view = await api.game(gameId, token);
      if (view.game.status === "over") return stop();
      const query = new URLSearchParams({ after: version });
      if (onChat && chatAfter) query.set("chat_after", chatAfter());
      if (token) query.set("ticket", (await api.streamTicket(gameId, token)).ticket);
      if (stopped) return;
      source = new EventSource(`/games/${encodeURIComponent(gameId)}/stream?${query}`);
    } catch (error) {
      trouble(error);
      return;
    }
    source.onopen = () => {
      pause = 0;
      if (troubled) onTrouble?.(null); // working again
      troubled = false;
    };
    source.onmessage = (message) => deliver([JSON.parse(message.data)]);
    source.addEventListener("end", stop);
    if (onChat) source.addEventListener("chat", (message) => onChat(JSON.parse(message.data)));
    source.onerror = () => {
      // An open stream that drops is reconnected by the browser itself; one it gave up on
      // (an expired ticket, the game's end) is opened anew here.
      if (source?.readyState === EventSource.CLOSED) {
        source = null;
        trouble(new NetworkError("The live connection was lost; reconnecting."));
      }
    };
  }

  open();
  return stop;
}
