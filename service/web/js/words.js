// What happened, in plain words: one line per event of the feed (a guess's outcome joins the
// line of the card that made it), and a summary of every round.

import { listing } from "./dom.js";
import { named, theCard } from "./cards.js";

const TOKEN_REASONS = {
  round: "for winning the round",
  spy: "for the Spy",
  jester: "for the Jester",
  bishop: "for the Bishop's right guess",
  constable: "for the Constable",
};

const ROUND_ENDS = {
  "last-standing": "with one player left",
  showdown: "in a showdown",
  "token-target": "when a token reached the target",
  forfeit: "when a player gave up",
};

const hidden = (value) => value === null || value === undefined;

/** Lines [{version, text, kind}] for these events; `names` are the table's seat names. */
export function logLines(events, { edition, names }) {
  const seats = [...names];
  const who = (seat) => seats[seat] || `seat ${seat + 1}`;
  const card = (id) => theCard(edition, id);
  const lines = [];
  const say = (event, text, kind = "") => lines.push({ version: event.version, text, kind });
  const writers = {
    table_opened: (e) => say(e, `A ${e.edition} table was opened with ${e.bots.length} seats`),
    seat_taken: (e) => {
      seats[e.seat] = e.name;
      say(e, `${e.name} sat down at seat ${e.seat + 1}`);
    },
    seat_left: (e) => say(e, `${who(e.seat)} left seat ${e.seat + 1}`),
    game_started: (e) => {
      e.players.forEach((name, seat) => (seats[seat] = name));
      say(e, `The game began: ${listing(e.players)}`, "round");
    },
    round_started: (e) => {
      const faceUp = e.face_up.length ? `; face up: ${listing(e.face_up.map(card))}` : "";
      say(e, `Round ${e.round}: ${who(e.first)} plays first${faceUp}`, "round");
    },
    turn_started: (e) => say(e, `${who(e.seat)}'s turn: drew ${hidden(e.card) ? "a card" : card(e.card)}`),
    card_drawn: (e) =>
      say(e, `${who(e.seat)} drew ${hidden(e.card) ? "a card" : card(e.card)}${e.from_set_aside ? " (the set-aside card)" : ""}`),
    card_played: (e) => {
      let text = `${who(e.seat)} played ${card(e.card)}`;
      if (e.targets.length) text += ` on ${listing(e.targets.map(who))}`;
      if (!hidden(e.guess)) text += `, naming ${named(edition, e.guess)}`;
      if (!hidden(e.look)) text += `, looking at ${who(e.look)}'s hand`;
      say(e, text);
    },
    guess_checked: (e) => {
      const last = lines.at(-1);
      const outcome = e.correct ? "right" : "wrong";
      if (last && last.version === e.version - 1 && last.text.includes("naming")) last.text += `: ${outcome}`;
      else say(e, `${who(e.seat)}'s guess was ${outcome}`);
    },
    hand_seen: (e) =>
      say(e, hidden(e.card)
        ? `${who(e.viewer)} looked at ${who(e.seat)}'s hand`
        : `${who(e.viewer)} saw that ${who(e.seat)} holds ${card(e.card)}`),
    hands_compared: (e) => {
      const cards = hidden(e.card) ? "" : ` (${card(e.card)} against ${card(e.target_card)})`;
      const outcome = hidden(e.loser) ? "a tie" : `${who(e.loser)} lost`;
      say(e, `${who(e.seat)} and ${who(e.target)} compared hands${cards}: ${outcome}`);
    },
    protection_gained: (e) => say(e, `${who(e.seat)} is protected until their next turn`),
    hand_discarded: (e) => say(e, `${who(e.seat)} discarded ${card(e.card)}`),
    hands_swapped: (e) => {
      const now = hidden(e.seat_card) ? "" : `; ${who(e.seat)} now holds ${card(e.seat_card)}, ${who(e.other)} ${card(e.other_card)}`;
      say(e, `${who(e.seat)} and ${who(e.other)} swapped hands${now}`);
    },
    chancellor_drew: (e) =>
      say(e, e.cards.some(hidden)
        ? `${who(e.seat)} drew ${e.cards.length} card${e.cards.length === 1 ? "" : "s"} with the Chancellor`
        : `${who(e.seat)} drew ${listing(e.cards.map(card))} with the Chancellor`),
    chancellor_returned: (e) =>
      say(e, hidden(e.kept)
        ? `${who(e.seat)} kept one card and put ${e.bottom.length} under the deck`
        : `${who(e.seat)} kept ${card(e.kept)} and put ${listing(e.bottom.map(card)) || "nothing"} under the deck`),
    sycophant_marked: (e) => say(e, `The next card that chooses players must choose ${who(e.target)}`),
    jester_marked: (e) => say(e, `${who(e.seat)} bets with the Jester that ${who(e.target)} wins the round`),
    assassin_revealed: (e) => say(e, `${who(e.seat)} held the Assassin: ${who(e.guard_player)} is out instead`),
    redraw_offered: (e) => say(e, `${who(e.seat)} may discard their hand and draw a new card`),
    redraw_answered: (e) =>
      say(e, e.redraw ? `${who(e.seat)} discards their hand to draw anew` : `${who(e.seat)} keeps their hand`),
    player_eliminated: (e) => {
      const shown = e.hand.length ? `, laying down ${listing(e.hand.map(card))}` : "";
      say(e, `${who(e.seat)} is out of the round${shown}`);
    },
    token_gained: (e) => say(e, `${who(e.seat)} gains a token ${TOKEN_REASONS[e.reason] || ""}`.trim()),
    round_ended: (e) => {
      const winners = e.winners.length
        ? `${listing(e.winners.map(who))} win${e.winners.length === 1 ? "s" : ""} it`
        : "nobody wins it";
      const shown = e.showdown.length
        ? `; hands shown: ${e.showdown.map(([seat, id]) => `${who(seat)} ${card(id)}`).join(", ")}`
        : "";
      say(e, `Round ${e.round} ended ${ROUND_ENDS[e.reason] || ""}: ${winners}${shown}`, "round");
    },
    seat_forfeited: (e) => say(e, `${who(e.seat)} gave the game up`),
    turn_timed_out: (e) => say(e, `${who(e.seat)} ran out of time`),
    game_ended: (e) =>
      say(e, `The game is over: ${listing(e.winners.map(who)) || "nobody"} win${e.winners.length === 1 ? "s" : ""}`, "round"),
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

export function roundEnd(reason) {
  return ROUND_ENDS[reason] || "";
}

export function tokenReason(reason) {
  return TOKEN_REASONS[reason] || "";
}
