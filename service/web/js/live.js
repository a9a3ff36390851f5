// Live updates of one game. The only place that knows how news arrives: today the event
// feed's long poll (GET /games/{id}/events?after=V&wait=N); a stream can replace it here.

import { api } from "./api.js";

const WAIT_SECONDS = 20;
const MAX_PAUSE_MS = 5000;

/**
 * Call `onEvents(events)` with every event after version `after`, as they happen, until the
 * returned function is called. `onTrouble(error)` hears of failures (it retries by itself),
 * and `onTrouble(null)` of the recovery.
 */
export function follow(gameId, { token, after, onEvents, onTrouble }) {
  const controller = new AbortController();
  let version = after;
  let pause = 0;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const page = await api.events(gameId, token, { after: version, wait: WAIT_SECONDS, signal: controller.signal });
        if (pause) onTrouble?.(null); // working again
        pause = 0;
        if (page.events.length) {
          version = page.events.at(-1).version;
          onEvents(page.events);
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        onTrouble?.(error);
        pause = Math.min(pause ? pause * 2 : 500, MAX_PAUSE_MS);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  })();
  return () => controller.abort();
}
