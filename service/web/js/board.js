// The table as one audience sees it at one version (a view of the API): seats, discard piles,
// tokens, the deck, face-up cards, your hand and what you know. Shared by the table and replay.

import { cardBack, cardFace, smallCard } from "./art.js";
import { h } from "./dom.js";
import { fairnessDetails } from "./fairness.js";
import { bornBot, botName, card, edition as editionOf, editionName, seatNames, theCard } from "./cards.js";
import { t } from "./i18n.js";
import { rulesLink } from "./rules.js";

/** A small card: its picture and number, named by its name and number (the effect as a
 *  tooltip); null: a hidden card, its back. */
export function chip(editionId, id) {
  if (id === null || id === undefined) return cardBack();
  const c = card(editionId, id);
  const small = smallCard(c);
  small.dataset.card = id;
  small.title = t("card.label.full", { name: c.name, rank: c.rank, effect: c.effect });
  return small;
}

/** A card in full: its face (picture, number, name) and its effect. */
function cardTile(editionId, id, tag = "li") {
  const c = card(editionId, id);
  return h(tag, { class: "card", "data-card": id, "aria-label": t("card.label.full", { name: c.name, rank: c.rank, effect: c.effect }) },
    cardFace(c, { label: null }),
    h("p", { class: "effect" }, c.effect));
}

/** Whose turn it is, as a short phrase (`names`: the seats' names for people). */
export function turnPhrase(view, you, names = view?.players) {
  if (!view) return t("turn.waiting");
  if (view.phase === "over") return t("turn.over");
  const acting = view.current ?? view.turn_seat;
  if (acting === null || acting === undefined) return t("turn.between");
  return t("turn.whose", {
    yours: acting === you ? "yes" : "no",
    player: names[acting],
    decision: view.decision || "play",
    bishop: theCard(view.edition, "bishop"),
  });
}

/** The whole board. */
export function board(view, game, { you = null } = {}) {
  const editionId = view.edition;
  const names = seatNames(game.seats);
  const acting = view.current ?? view.turn_seat;
  const knownBySeat = new Map();
  for (const k of view.known) if (k.seat !== null && k.still_held) knownBySeat.set(k.seat, k.card);
  const seats = view.seats.map((seat) => {
    const held = game.seats[seat.seat];
    const name = names[seat.seat] ?? seat.name;
    const bot = held?.bot && !bornBot(held) ? held.bot : null; // a bot playing a person's seat
    const out = seat.eliminated || seat.forfeited;
    const badges = [
      seat.seat === acting && view.phase === "round" && h("span", { class: "badge turn" }, t("seat.badge.turn")),
      seat.protected && h("span", { class: "badge protected" }, t("seat.badge.protected")),
      seat.forfeited ? h("span", { class: "badge out" }, t("seat.badge.forfeited")) : seat.eliminated && h("span", { class: "badge out" }, t("seat.badge.out")),
      view.game_winners.includes(seat.seat) && h("span", { class: "badge winner" }, t("seat.badge.winner")),
    ].filter(Boolean);
    const hand = view.hands ? view.hands[seat.seat] : seat.seat === you ? view.hand : null;
    const known = knownBySeat.get(seat.seat);
    return h("li", {
      class: `seat${seat.seat === acting && view.phase === "round" ? " turn" : ""}${out ? " out" : ""}`,
      "data-seat": seat.seat,
      "aria-label": t("seat.label", { name, you: seat.seat === you ? "yes" : "no" }),
    },
      h("div", { class: "seat-head" },
        h("span", { class: "seat-name" }, t("seat.name", { name, you: seat.seat === you ? "yes" : "no" })),
        h("span", { class: "muted small" }, bot ? botName(bot) : t("seat.number", { number: seat.seat + 1 }))),
      badges.length ? h("div", { class: "badges" }, badges) : null,
      h("div", {},
        h("span", { class: "tokens", "aria-hidden": "true" }, "♥".repeat(seat.tokens)),
        h("span", { class: "small" }, " ", t("seat.tokens", { tokens: seat.tokens, target: view.tokens_to_win }))),
      h("div", { class: "small" },
        hand ? [t("seat.hand"), " ", h("span", { "data-hand-of": seat.seat }, hand.length ? hand.map((id) => chip(editionId, id)) : t("seat.hand.none"))]
          : t("seat.hand.size", { count: seat.hand_size }),
        known && hand === null ? [" · ", t("seat.known"), " ", chip(editionId, known)] : null),
      h("div", { class: "small" }, t("seat.pile"), " ",
        seat.discards.length
          ? h("ol", { class: "pile", "data-pile-of": seat.seat, "aria-label": t("seat.pile.label", { name }) },
            seat.discards.map((id) => h("li", {}, chip(editionId, id))))
          : h("span", { class: "muted" }, t("seat.pile.empty"))));
  });

  const middle = h("div", { class: "center" },
    h("span", { "data-deck": view.deck_size, "data-part": "deck" }, t("board.deck", { count: view.deck_size })),
    view.face_up.length
      ? h("span", { "data-face-up": "" }, t("board.face_up"), " ", view.face_up.map((id) => chip(editionId, id)))
      : null,
    view.set_aside ? h("span", {}, t("board.set_aside"), " ", chip(editionId, view.set_aside)) : null,
    view.commitment
      ? h("div", { class: "fair-deal", "data-sealed": view.commitment },
        h("span", {}, t("fairness.sealed")), fairnessDetails(view.commitment))
      : null);

  const sections = [];
  if (view.hand) {
    sections.push(h("section", { class: "panel", "aria-labelledby": "hand-title" },
      h("h2", { id: "hand-title" }, t("board.hand.title")),
      view.hand.length
        ? h("ul", { class: "hand", "data-hand": "", "data-part": "hand" }, view.hand.map((id) => cardTile(editionId, id)))
        : h("p", { class: "muted", "data-hand": "" }, t("board.hand.none"))));
  }
  sections.push(h("section", { class: "panel", "aria-labelledby": "board-title" },
    h("h2", { id: "board-title" }, t("board.round", { round: view.round }), h("span", { class: "muted small" },
      " · ", t("board.target", { edition: editionName(editionId), tokens: view.tokens_to_win }))),
    middle,
    h("ul", { class: "seats", "aria-label": t("board.seats") }, seats)));
  if (you !== null && you !== undefined) sections.push(knownPanel(view, names));
  return sections;
}

/** What this seat learnt privately, and whether it may still be held there. */
function knownPanel(view, names) {
  const items = view.known.map((k) => {
    const where = k.seat === null
      ? t("known.under_deck", { count: k.depth })
      : t("known.held", {
        yours: k.seat === view.you ? "yes" : "no",
        player: names[k.seat],
        still: k.still_held ? "yes" : "no",
      });
    return h("li", { "data-known": k.card, "data-still-held": String(k.still_held) },
      chip(view.edition, k.card), " ", where,
      h("span", { class: "muted small" }, " — ", t("known.source", { card: theCard(view.edition, k.source), round: k.round, turn: k.turn })));
  });
  return h("section", { class: "panel", "aria-labelledby": "known-title" },
    h("h2", { id: "known-title" }, t("known.title")),
    items.length ? h("ul", { class: "known" }, items)
      : h("p", { class: "muted" }, t("known.none", {
        priest: theCard(view.edition, "priest"), baron: theCard(view.edition, "baron"), king: theCard(view.edition, "king"),
      })));
}

/** Every card of the edition with its copies and effect. */
export function reference(editionId) {
  const found = editionOf(editionId);
  return h("details", { class: "panel reference" },
    h("summary", {}, t("reference.title", { edition: editionName(editionId) })),
    h("p", {}, h("a", { href: rulesLink(editionId), "data-rules": "" }, t("reference.rules", { edition: editionName(editionId) }))),
    h("dl", {}, found.cards.map((c) => [
      h("dt", {}, t("reference.card", { rank: c.rank, name: c.name, copies: c.copies })),
      h("dd", {}, c.effect),
    ])));
}

/** Who sits at each seat of a table (`game` of a view), and which seats are open. */
export function seatList(game) {
  const names = seatNames(game.seats);
  return h("ul", { class: "seat-list", "aria-label": t("board.seats") }, game.seats.map((seat) =>
    h("li", { class: seat.open ? "open" : "" },
      seat.open ? t("seat.open")
        : seat.bot && !bornBot(seat) ? t("seat.bot", { name: seat.name, bot: botName(seat.bot) }) : names[seat.seat])));
}
