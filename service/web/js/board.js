// The table as one audience sees it at one version (a view of the API): seats, discard piles,
// tokens, the deck, face-up cards, your hand and what you know. Shared by the table and replay.

import { h } from "./dom.js";
import { card, edition as editionOf, theCard } from "./cards.js";

/** A small card: its number and name (the effect as a tooltip); null: a hidden card. */
export function chip(editionId, id) {
  if (id === null || id === undefined) return h("span", { class: "chip hidden" }, "hidden card");
  const c = card(editionId, id);
  return h("span", { class: "chip", "data-card": id, title: c.effect },
    h("span", { class: "rank" }, c.rank), c.name);
}

/** A card in full: number, name and effect. */
function cardTile(editionId, id, tag = "li") {
  const c = card(editionId, id);
  return h(tag, { class: "card", "data-card": id },
    h("div", { class: "card-head" }, h("span", { class: "rank", "aria-label": `number ${c.rank}` }, c.rank),
      h("span", { class: "name" }, c.name)),
    h("p", { class: "effect" }, c.effect));
}

/** Whose turn it is, as a short phrase. */
export function turnPhrase(view, you) {
  if (!view) return "Waiting for players";
  if (view.phase === "over") return "The game is over";
  const acting = view.current ?? view.turn_seat;
  if (acting === null || acting === undefined) return "Between rounds";
  const what = { chancellor: " (keeping a card)", redraw: " (answering the Bishop)" }[view.decision] || "";
  return acting === you ? `Your turn${what}` : `${view.players[acting]}'s turn${what}`;
}

/** The whole board. */
export function board(view, game, { you = null } = {}) {
  const editionId = view.edition;
  const acting = view.current ?? view.turn_seat;
  const knownBySeat = new Map();
  for (const k of view.known) if (k.seat !== null && k.still_held) knownBySeat.set(k.seat, k.card);
  const seats = view.seats.map((seat) => {
    const bot = game.seats[seat.seat]?.bot;
    const out = seat.eliminated || seat.forfeited;
    const badges = [
      seat.seat === acting && view.phase === "round" && h("span", { class: "badge turn" }, "turn"),
      seat.protected && h("span", { class: "badge protected" }, "protected"),
      seat.forfeited ? h("span", { class: "badge out" }, "gave up") : seat.eliminated && h("span", { class: "badge out" }, "out"),
      view.game_winners.includes(seat.seat) && h("span", { class: "badge winner" }, "winner"),
    ].filter(Boolean);
    const hand = view.hands ? view.hands[seat.seat] : seat.seat === you ? view.hand : null;
    const known = knownBySeat.get(seat.seat);
    return h("li", {
      class: `seat${seat.seat === acting && view.phase === "round" ? " turn" : ""}${out ? " out" : ""}`,
      "data-seat": seat.seat,
      "aria-label": `${seat.name}${seat.seat === you ? " (you)" : ""}`,
    },
      h("div", { class: "seat-head" },
        h("span", { class: "seat-name" }, seat.name, seat.seat === you ? " (you)" : ""),
        h("span", { class: "muted small" }, bot ? `${bot} bot` : `seat ${seat.seat + 1}`)),
      badges.length ? h("div", { class: "badges" }, badges) : null,
      h("div", {},
        h("span", { class: "tokens", "aria-hidden": "true" }, "♥".repeat(seat.tokens)),
        h("span", { class: "small" }, ` ${seat.tokens} of ${view.tokens_to_win} tokens`)),
      h("div", { class: "small" },
        hand ? ["Hand: ", h("span", { "data-hand-of": seat.seat }, hand.length ? hand.map((id) => chip(editionId, id)) : "none")]
          : `${seat.hand_size} card${seat.hand_size === 1 ? "" : "s"} in hand`,
        known && hand === null ? [" · you know: ", chip(editionId, known)] : null),
      h("div", { class: "small" }, "Discard pile",
        seat.discards.length
          ? h("ol", { class: "pile", "data-pile-of": seat.seat, "aria-label": `${seat.name}'s discard pile, oldest first` },
            seat.discards.map((id) => h("li", {}, chip(editionId, id))))
          : h("span", { class: "muted" }, ": empty")));
  });

  const middle = h("div", { class: "center" },
    h("span", { "data-deck": view.deck_size }, `Deck: ${view.deck_size} card${view.deck_size === 1 ? "" : "s"}`),
    view.face_up.length
      ? h("span", { "data-face-up": "" }, "Face up: ", view.face_up.map((id) => chip(editionId, id)))
      : null,
    view.set_aside ? h("span", {}, "Set aside: ", chip(editionId, view.set_aside)) : null,
    view.commitment
      ? h("span", { class: "commitment", title: "SHA-256 of this round's deal, published before play" },
        `Deal commitment ${view.commitment.slice(0, 16)}…`)
      : null);

  const sections = [];
  if (view.hand) {
    sections.push(h("section", { class: "panel", "aria-labelledby": "hand-title" },
      h("h2", { id: "hand-title" }, "Your hand"),
      view.hand.length
        ? h("ul", { class: "hand", "data-hand": "" }, view.hand.map((id) => cardTile(editionId, id)))
        : h("p", { class: "muted", "data-hand": "" }, "No card in hand.")));
  }
  sections.push(h("section", { class: "panel", "aria-labelledby": "board-title" },
    h("h2", { id: "board-title" }, `Round ${view.round}`, h("span", { class: "muted small" },
      ` · ${editionId} · ${view.tokens_to_win} tokens to win`)),
    middle,
    h("ul", { class: "seats", "aria-label": "Seats" }, seats)));
  if (you !== null && you !== undefined) sections.push(knownPanel(view));
  return sections;
}

/** What this seat learnt privately, and whether it may still be held there. */
function knownPanel(view) {
  const who = (seat) => (seat === view.you ? "you" : view.players[seat]);
  const items = view.known.map((k) => {
    const where = k.seat === null
      ? `lies under the deck with ${k.depth} card${k.depth === 1 ? "" : "s"} below it`
      : `${k.seat === view.you ? "you hold" : `${who(k.seat)} holds`}`;
    const held = k.seat === null ? "" : k.still_held ? " (still held)" : " (may have moved since)";
    return h("li", { "data-known": k.card, "data-still-held": String(k.still_held) },
      chip(view.edition, k.card), ` ${where}${held}`,
      h("span", { class: "muted small" }, ` — seen through ${theCard(view.edition, k.source)}, round ${k.round}, turn ${k.turn}`));
  });
  return h("section", { class: "panel", "aria-labelledby": "known-title" },
    h("h2", { id: "known-title" }, "What you know"),
    items.length ? h("ul", { class: "known" }, items) : h("p", { class: "muted" }, "Nothing yet: a Priest, a Baron or a King would tell you."));
}

/** Every card of the edition with its copies and effect. */
export function reference(editionId) {
  const found = editionOf(editionId);
  return h("details", { class: "panel reference" },
    h("summary", {}, `The ${editionId} cards`),
    h("dl", {}, found.cards.map((c) => [
      h("dt", {}, `${c.rank} ${c.name} ×${c.copies}`),
      h("dd", {}, c.effect),
    ])));
}

/** Who sits at each seat of a table (`game` of a view), and which seats are open. */
export function seatList(game) {
  return h("ul", { class: "seat-list", "aria-label": "Seats" }, game.seats.map((seat) =>
    h("li", { class: seat.open ? "open" : "" },
      seat.open ? "open seat" : seat.bot ? `${seat.name} (${seat.bot} bot)` : seat.name)));
}
