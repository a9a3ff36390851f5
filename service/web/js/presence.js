// Presence marks at the table: whether each seated person has been here within the last
// minute, as the game's view (GET /games/{id}) says. Answers to moves don't carry it, so the
// last one heard is kept per game.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const known = new Map(); // game id -> [presence per seat]

/** Remember what a view says of presence (views without it leave the last one). */
export function notePresence(game) {
  if (game.seats.some((seat) => "presence" in seat)) known.set(game.id, game.seats.map((seat) => seat.presence ?? null));
}

/** A seat's mark ("here" or "away"), or null for bots, open seats and unknowns. */
export function presenceMark(gameId, seat, name) {
  const state = known.get(gameId)?.[seat];
  if (!state) return null;
  const label = t("presence.label", { name, state });
  return h("span", { class: `presence ${state}`, "data-presence": state, title: label, "aria-label": label },
    state === "here" ? "●" : "○", " ", t("presence.state", { state }));
}
