// The table as one audience sees it at one version (a view of the API): the seats around it,
// each with its discard pile, tokens and state, the deck and face-up cards in the middle, and
// your hand. Shared by the table and the replay. Every card is drawn by face.js.
//
// Hooks for guides and tests (docs/web.md): data-part="table" | "deck" | "hand", data-seat on
// each seat, data-card on each card, data-pile-of and data-hand-of on a seat's cards.

import { cardBack, cardFace, smallCard } from "./art.js";
import { arrowKeys, h } from "./dom.js";
import { fairnessDetails } from "./fairness.js";
import { bornBot, botName, card, edition as editionOf, editionName, seatNames, theCard } from "./cards.js";
import { t } from "./i18n.js";
import { presenceMark } from "./presence.js";
import { rulesLink } from "./rules.js";

/** A small card: its picture and number, named by its name and number (the effect as a
 *  tooltip); null: a hidden card, its back. `arrived`: it has just come (a short motion, none
 *  under prefers-reduced-motion). */
export function chip(editionId, id, { arrived = false } = {}) {
  const small = id === null || id === undefined ? cardBack() : smallCard(card(editionId, id));
  if (id !== null && id !== undefined) {
    const c = card(editionId, id);
    small.dataset.card = id;
    small.title = t("card.label.full", { name: c.name, rank: c.rank, effect: c.effect });
  }
  if (arrived) small.classList.add("arrived");
  return small;
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

/**
 * Where each seat sits on a grid of 12 columns, clockwise from the bottom one (yours): up the
 * left side, across the top, down the right side. {row, column, span} by seat, and where the
 * middle of the table (the deck) goes.
 */
export function placesAround(count, bottom) {
  const others = count - 1;
  const side = others <= 2 ? 0 : others <= 5 ? 1 : 2; // seats on each side
  const top = others - 2 * side;
  const middle = Math.max(side, 1); // rows between the top and the bottom
  const width = top === 1 ? 6 : 12 / top;
  const places = [];
  for (let index = 0; index < others; index += 1) {
    const seat = (bottom + 1 + index) % count;
    if (index < side) places[seat] = { row: 1 + side - index, column: 1, span: 3 };
    else if (index < side + top) {
      const along = index - side;
      places[seat] = { row: 1, column: top === 1 ? 4 : 1 + along * width, span: width };
    } else places[seat] = { row: 2 + index - side - top, column: 10, span: 3 };
  }
  places[bottom] = { row: 2 + middle, column: 4, span: 6 };
  const center = side ? { row: 2, rows: middle, column: 4, span: 6 } : { row: 2, rows: 1, column: 1, span: 12 };
  return { places, center, rows: 2 + middle };
}

/**
 * The seat that takes a whole row on a narrow table, or null: the seats are listed two by two
 * there (yours last, else by number), so an odd count leaves the last one alone on its row.
 */
export function wideSeat(count, you) {
  return count % 2 ? (you ?? count - 1) : null;
}

/** Set CSS custom properties (the CSSOM, which the page's content security policy allows). */
function place(element, values) {
  for (const [name, value] of Object.entries(values)) element.style.setProperty(`--${name}`, String(value));
  return element;
}

/** The cards that are in `now` but were not in `before` (as many times as they are new). */
function newCards(now, before) {
  const left = [...(before || [])];
  return now.map((id) => {
    const at = left.indexOf(id);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

/** Tokens as hearts, filled up to the seat's count, out of the number that wins. */
function tokenRow(tokens, target) {
  return h("span", { class: "tokens", role: "img", "aria-label": t("seat.tokens", { tokens, target }) },
    h("span", { class: "won" }, "♥".repeat(Math.min(tokens, 12))),
    h("span", { class: "to-win" }, "♡".repeat(Math.max(0, Math.min(target, 12) - tokens))));
}

/** The backs of `count` cards held face down (the newest drawn with a motion). */
function backs(count, drawn) {
  return h("span", { class: "backs", role: "img", "aria-label": t("seat.hand.size", { count }) },
    Array.from({ length: count }, (_, index) => h("span", { class: `back${drawn && index === count - 1 ? " arrived" : ""}` })));
}

/** One seat: name, presence, tokens, state, what it holds, its discard pile. */
function seatTile(view, game, seat, { you, acting, known, before, asking, places, names }) {
  const earlier = before && before.round === view.round ? before.seats[seat.seat] : null;
  const out = seat.eliminated || seat.forfeited;
  const mine = seat.seat === you;
  const held = game.seats[seat.seat];
  const name = names[seat.seat] ?? seat.name;
  const bot = held?.bot && !bornBot(held) ? held.bot : null; // a bot playing a person's seat
  const turn = seat.seat === acting && view.phase === "round";
  const badges = [
    turn && h("span", { class: "badge turn" }, t("seat.badge.turn")),
    seat.protected && h("span", { class: "badge protected" }, t("seat.badge.protected")),
    seat.forfeited ? h("span", { class: "badge out" }, t("seat.badge.forfeited")) : seat.eliminated && h("span", { class: "badge out" }, t("seat.badge.out")),
    view.game_winners.includes(seat.seat) && h("span", { class: "badge winner" }, t("seat.badge.winner")),
  ].filter(Boolean);
  const shown = view.hands ? view.hands[seat.seat] : null; // every hand: the game is over
  let holding = null;
  if (shown) {
    const fresh = newCards(shown, before?.hands?.[seat.seat]);
    holding = h("span", { class: "held small" }, t("seat.hand"), " ", h("span", { "data-hand-of": seat.seat }, shown.length
      ? shown.map((id, index) => chip(view.edition, id, { arrived: fresh[index] && Boolean(before) }))
      : t("seat.hand.none")));
  } else if (!mine && seat.hand_size) {
    holding = [backs(seat.hand_size, earlier && seat.hand_size > earlier.hand_size),
      known ? h("span", { class: "known-card small" }, t("seat.known"), " ", chip(view.edition, known)) : null];
  }
  const played = earlier ? seat.discards.length - earlier.discards.length : 0;
  const chooses = asking?.field === "targets" && asking.has([seat.seat]);
  const tile = h("li", {
    class: `seat${turn ? " turn" : ""}${out ? " out" : ""}${mine ? " mine" : ""}${chooses ? " choosable" : ""}${places.wide === seat.seat ? " wide" : ""}`,
    "data-seat": seat.seat,
    "aria-label": t("seat.label", { name, you: mine ? "yes" : "no" }),
    onclick: chooses ? () => asking.choose([seat.seat]) : undefined,
  },
  h("div", { class: "seat-head" },
    h("span", { class: "seat-name" }, t("seat.name", { name, you: mine ? "yes" : "no" })),
    bot ? h("span", { class: "bot-kind muted small" }, botName(bot))
      : held?.bot ? null : presenceMark(game.id, seat.seat, seat.name)),
  h("div", { class: "seat-cards" },
    tokenRow(seat.tokens, view.tokens_to_win),
    badges,
    holding,
    seat.discards.length
      ? h("ol", { class: "pile", "data-pile-of": seat.seat, "aria-label": t("seat.pile.label", { name }) },
        seat.discards.map((id, index) => h("li", {}, chip(view.edition, id, { arrived: index >= seat.discards.length - played }))))
      : h("span", { class: "pile-empty", role: "img", "aria-label": t("seat.pile.label.empty", { name }) })));
  return place(tile, places.places[seat.seat]);
}

/** The middle of the table: the round, the deck, the face-up and set-aside cards. */
function middle(view, { before, center }) {
  const editionId = view.edition;
  const dealt = before && before.deck_size > view.deck_size && before.round === view.round;
  const element = h("div", { class: "center" },
    h("h2", { id: "board-title" }, t("board.round", { round: view.round }), h("span", { class: "muted small" },
      " · ", t("board.target", { edition: editionName(editionId), tokens: view.tokens_to_win }))),
    h("div", { class: "center-cards" },
      h("div", { class: `deck${dealt ? " dealt" : ""}`, "data-part": "deck", "data-deck": view.deck_size, role: "img", "aria-label": t("board.deck", { count: view.deck_size }) },
        h("span", { class: "back" }), h("span", { class: "count", "aria-hidden": "true" }, view.deck_size)),
      view.face_up.length
        ? h("div", { class: "aside", "data-face-up": "" }, h("span", { class: "small" }, t("board.face_up")), view.face_up.map((id) => chip(editionId, id)))
        : null,
      view.set_aside ? h("div", { class: "aside" }, h("span", { class: "small" }, t("board.set_aside")), chip(editionId, view.set_aside)) : null),
    view.commitment
      ? h("div", { class: "fair-deal", "data-sealed": view.commitment },
        h("span", {}, t("fairness.sealed")), fairnessDetails(view.commitment))
      : null);
  return place(element, { "center-row": center.row, "center-rows": center.rows, "center-column": center.column, "center-span": center.span });
}

/** Your hand: each card in full (face and effect); the cards `asking` offers are buttons. */
function handList(view, { before, asking }) {
  const editionId = view.edition;
  if (!view.hand.length) return h("p", { class: "muted", "data-part": "hand", "data-hand": "" }, t("board.hand.none"));
  const fresh = newCards(view.hand, before?.round === view.round ? before?.hand : null);
  const offered = asking && (asking.field === "card" || asking.field === "keep") ? asking : null;
  const picked = asking?.chosen.card ?? asking?.chosen.keep;
  const tiles = view.hand.map((id, index) => {
    const c = card(editionId, id);
    const body = [cardFace(c, { label: null }), h("span", { class: "effect" }, c.effect)];
    const choosable = offered?.has(id);
    const state = fresh[index] && before ? " arrived" : offered && !choosable ? " unplayable" : id === picked ? " picked" : "";
    return h("li", {
      class: `card${state}`, "data-card": id,
      "aria-label": t("card.label.full", { name: c.name, rank: c.rank, effect: c.effect }),
    }, choosable
      ? h("button", {
        type: "button", class: "card-button", "data-choice": offered.field, "data-value": JSON.stringify(id),
        "aria-label": t("hand.choose", { keep: offered.field === "keep" ? "yes" : "no", card: theCard(editionId, id) }),
        onclick: () => offered.choose(id),
      }, body)
      : h("div", { class: "card-body" }, body));
  });
  return h("ul", { class: "hand", "data-part": "hand", "data-hand": "", "aria-label": t("board.hand.title"), onkeydown: arrowKeys }, tiles);
}

/**
 * The board: {table, hand, known} (hand: the list of your cards, null for a spectator).
 * `before`: the view shown just before (cards new since then arrive with a motion); `asking`:
 * the move's question, {field, chosen, has(value), choose(value)}, whose choices among your
 * hand and the seats become tappable.
 */
export function board(view, game, { you = null, before = null, asking = null } = {}) {
  const acting = view.current ?? view.turn_seat;
  const knownBySeat = new Map();
  for (const k of view.known) if (k.seat !== null && k.still_held) knownBySeat.set(k.seat, k.card);
  const places = { ...placesAround(view.seats.length, you ?? 0), wide: wideSeat(view.seats.length, you) };
  const names = seatNames(game.seats);
  const seats = view.seats.map((seat) => seatTile(view, game, seat, {
    you, acting, known: knownBySeat.get(seat.seat), before, asking, places, names,
  }));
  const table = h("section", { class: "panel table-panel", "aria-labelledby": "board-title" },
    place(h("div", { class: "felt", "data-part": "table" },
      h("ul", { class: "seats", "aria-label": t("board.seats") }, seats),
      middle(view, { before, center: places.center })), { rows: places.rows }));
  return {
    table,
    hand: view.hand ? handList(view, { before, asking }) : null,
    known: you !== null && you !== undefined ? knownPanel(view, names) : null,
  };
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
