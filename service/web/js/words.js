// What happened, in plain words: one line per event of the feed (a guess's outcome joins the
// line of the card that made it), and a summary of every round. Each event type has its
// message `event.<type>` in every catalogue (a test checks them against the API's document).

import { listing } from "./dom.js";
import { botName, editionName, named, theCard } from "./cards.js";
import { t } from "./i18n.js";

const hidden = (value) => value === null || value === undefined;
const yes = (value) => (value ? "yes" : "no");
const CARD_REASONS = new Set(["spy", "jester", "bishop", "constable"]);

/** Why a seat gained a token, as a phrase ("for the Spy"). */
export function tokenReason(reason, edition) {
  const known = reason === "round" || CARD_REASONS.has(reason);
  return t("reason.token", { reason: known ? reason : "other", card: known && reason !== "round" ? theCard(edition, reason) : "" });
}

/** How a round ended, as a phrase ("in a showdown"). */
export function roundEnd(reason) {
  return t("reason.round_end", { reason: String(reason || "other").replaceAll("-", "_") });
}

/** Lines [{version, text, kind}] for these events; `names` are the table's seat names for
 *  people, `aliases` the names events carry for its bots mapped to theirs. */
export function logLines(events, { edition, names, aliases = new Map() }) {
  const seats = [...names];
  const person = (name) => aliases.get(name) ?? name;
  const who = (seat) => seats[seat] || t("seat.number", { number: seat + 1 });
  const card = (id) => theCard(edition, id);
  const lines = [];
  const say = (event, text, kind = "") => lines.push({ version: event.version, text, kind, type: event.type });
  const writers = {
    table_opened: (e) => say(e, t("event.table_opened", { edition: editionName(e.edition), seats: e.bots.length })),
    seat_taken: (e) => {
      seats[e.seat] = person(e.name);
      say(e, t("event.seat_taken", { player: seats[e.seat], seat: e.seat + 1 }));
    },
    seat_left: (e) => say(e, t("event.seat_left", { player: who(e.seat), seat: e.seat + 1 })),
    webhook_set: (e) => say(e, t("event.webhook_set", { player: who(e.seat) })),
    game_started: (e) => {
      e.players.forEach((name, seat) => (seats[seat] = person(name)));
      say(e, t("event.game_started", { players: listing(seats.slice(0, e.players.length)) }), "round");
    },
    round_started: (e) => say(e, t("event.round_started", {
      round: e.round, player: who(e.first), faceup: yes(e.face_up.length), cards: listing(e.face_up.map(card)),
    }), "round"),
    turn_started: (e) => say(e, t("event.turn_started", { player: who(e.seat), known: yes(!hidden(e.card)), card: hidden(e.card) ? "" : card(e.card) })),
    card_drawn: (e) => say(e, t("event.card_drawn", {
      player: who(e.seat), known: yes(!hidden(e.card)), card: hidden(e.card) ? "" : card(e.card), set_aside: yes(e.from_set_aside),
    })),
    card_played: (e) => say(e, t("event.card_played", {
      player: who(e.seat),
      card: card(e.card),
      targets: listing(e.targets.map(who)),
      aimed: yes(e.targets.length),
      guessed: yes(!hidden(e.guess)),
      guess: hidden(e.guess) ? "" : named(edition, e.guess),
      looked: yes(!hidden(e.look)),
      look: hidden(e.look) ? "" : who(e.look),
    })),
    guess_checked: (e) => {
      const last = lines.at(-1);
      if (last && last.version === e.version - 1 && last.type === "card_played") {
        last.text = t("log.guess_outcome", { line: last.text, correct: yes(e.correct) });
      } else say(e, t("event.guess_checked", { player: who(e.seat), correct: yes(e.correct) }));
    },
    hand_seen: (e) => say(e, t("event.hand_seen", {
      viewer: who(e.viewer), player: who(e.seat), known: yes(!hidden(e.card)), card: hidden(e.card) ? "" : card(e.card),
    })),
    hands_compared: (e) => say(e, t("event.hands_compared", {
      player: who(e.seat),
      target: who(e.target),
      known: yes(!hidden(e.card)),
      card: hidden(e.card) ? "" : card(e.card),
      target_card: hidden(e.target_card) ? "" : card(e.target_card),
      tie: yes(hidden(e.loser)),
      loser: hidden(e.loser) ? "" : who(e.loser),
    })),
    protection_gained: (e) => say(e, t("event.protection_gained", { player: who(e.seat) })),
    hand_discarded: (e) => say(e, t("event.hand_discarded", { player: who(e.seat), card: card(e.card) })),
    hands_swapped: (e) => say(e, t("event.hands_swapped", {
      player: who(e.seat),
      other: who(e.other),
      known: yes(!hidden(e.seat_card)),
      card: hidden(e.seat_card) ? "" : card(e.seat_card),
      other_card: hidden(e.other_card) ? "" : card(e.other_card),
    })),
    chancellor_drew: (e) => say(e, t("event.chancellor_drew", {
      player: who(e.seat),
      known: yes(!e.cards.some(hidden)),
      count: e.cards.length,
      cards: e.cards.some(hidden) ? "" : listing(e.cards.map(card)),
      chancellor: card("chancellor"),
    })),
    chancellor_returned: (e) => say(e, t("event.chancellor_returned", {
      player: who(e.seat),
      known: yes(!hidden(e.kept)),
      kept: hidden(e.kept) ? "" : card(e.kept),
      count: e.bottom.length,
      bottom: e.bottom.some(hidden) ? "" : listing(e.bottom.map(card)),
    })),
    sycophant_marked: (e) => say(e, t("event.sycophant_marked", { player: who(e.target) })),
    jester_marked: (e) => say(e, t("event.jester_marked", { player: who(e.seat), target: who(e.target), jester: card("jester") })),
    assassin_revealed: (e) => say(e, t("event.assassin_revealed", { player: who(e.seat), guard: who(e.guard_player), assassin: card("assassin") })),
    redraw_offered: (e) => say(e, t("event.redraw_offered", { player: who(e.seat) })),
    redraw_answered: (e) => say(e, t("event.redraw_answered", { player: who(e.seat), redraw: yes(e.redraw) })),
    player_eliminated: (e) => say(e, t("event.player_eliminated", {
      player: who(e.seat), shown: yes(e.hand.length), cards: listing(e.hand.map(card)),
    })),
    token_gained: (e) => say(e, t("event.token_gained", { player: who(e.seat), reason: tokenReason(e.reason, edition) })),
    round_ended: (e) => say(e, t("event.round_ended", {
      round: e.round,
      how: roundEnd(e.reason),
      count: e.winners.length,
      winners: listing(e.winners.map(who)),
      shown: yes(e.showdown.length),
      hands: listing(e.showdown.map(([seat, id]) => t("log.shown_hand", { player: who(seat), card: card(id) }))),
    }), "round"),
    seat_forfeited: (e) => say(e, t("event.seat_forfeited", { player: who(e.seat) })),
    turn_timed_out: (e) => say(e, t("event.turn_timed_out", { player: who(e.seat) })),
    seat_taken_over: (e) => say(e, t("event.seat_taken_over", { player: who(e.seat), bot: botName(e.bot), reason: e.reason.replaceAll("-", "_") })),
    game_ended: (e) => say(e, t("event.game_ended", { count: e.winners.length, winners: listing(e.winners.map(who)) }), "round"),
  };
  for (const event of events) writers[event.type]?.(event);
  return lines;
}

/** Every round of the events: its deal's commitment, what was revealed, and its winners. */
export function roundSummaries(events) {
  const rounds = [];
  let game = 0;
  let current = null;
  for (const e of events) {
    if (e.type === "game_started") game += 1;
    else if (e.type === "round_started") {
      current = {
        game, round: e.round, started: e.version, ended: null, commitment: e.commitment,
        faceUp: e.face_up, eliminated: [], tokens: [], winners: [], showdown: [], reason: null,
        setAside: null, deck: [], salt: null, dealt: [],
      };
      rounds.push(current);
    } else if (current && current.ended === null) {
      if (e.type === "player_eliminated") current.eliminated.push({ seat: e.seat, hand: e.hand, cause: e.cause, version: e.version });
      else if (e.type === "token_gained") current.tokens.push({ seat: e.seat, reason: e.reason });
      else if (e.type === "round_ended") {
        Object.assign(current, {
          ended: e.version, winners: e.winners, showdown: e.showdown, reason: e.reason,
          setAside: e.set_aside, deck: e.deck, salt: e.salt, dealt: e.dealt,
        });
      }
    }
    if (current && e.type === "token_gained" && current.ended !== null && current.ended < e.version) {
      current.tokens.push({ seat: e.seat, reason: e.reason }); // Spy and Jester tokens follow the end
    }
  }
  return rounds;
}
