// What the tutorial's guide says at each moment, worked out from the story (GET
// /tutorials/<name>) and the game as the learner's seat sees it (its view and events): data in,
// data out, nothing drawn here (guide.js draws it). A moment is a list of bubbles the learner
// reads in turn; the last one of a learner's turn says what to play.

// Events that are a move of the story (one command each).
const MOVES = new Set(["card_played", "chancellor_returned", "redraw_answered"]);

// The tutorials by edition family: an edition learns with its family's tutorial.
export const FAMILIES = { 2019: ["2019", "2019-classic"], classic: ["classic", "premium"] };

/** The tutorial of an edition's family ("2019-classic" -> "2019"), or null. */
export function tutorialOf(edition) {
  return Object.keys(FAMILIES).find((name) => FAMILIES[name].includes(edition)) ?? null;
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Whether a move event is the story's move (a bot's: made by the bot's seat). */
function follows(event, move) {
  if (event.seat !== move.seat) return false;
  const expected = move.command;
  if (!expected) return true;
  if (event.type !== "card_played" || expected.type !== "play") return event.type !== "card_played";
  return event.card === expected.card && same(event.targets ?? [], expected.targets ?? [])
    && same(event.guess, expected.guess) && same(event.look, expected.look);
}

/** Every card the learner has come to know, in order: {card, how, version}. */
export function metCards(events, you) {
  const met = [];
  const add = (card, how, version) => card && met.push({ card, how, version });
  for (const e of events) {
    if (e.type === "round_started") {
      e.face_up.forEach((card) => add(card, "face_up", e.version));
      add(e.hands[you], "dealt", e.version);
    } else if ((e.type === "turn_started" || e.type === "card_drawn") && e.seat === you) add(e.card, "drawn", e.version);
    else if (e.type === "chancellor_drew" && e.seat === you) e.cards.forEach((card) => add(card, "drawn", e.version));
    else if (e.type === "card_played" && e.seat !== you) add(e.card, "played", e.version);
    else if (e.type === "hand_seen" && e.viewer === you) add(e.card, "seen", e.version);
    else if (e.type === "hands_compared" && (e.seat === you || e.target === you)) add(e.seat === you ? e.target_card : e.card, "seen", e.version);
    else if (e.type === "player_eliminated" && e.seat !== you) e.hand.forEach((card) => add(card, "seen", e.version));
  }
  return met;
}

/** The cards first met after `version` (each once, as it was first met). */
function firstMetAfter(met, version) {
  const before = new Set(met.filter((m) => m.version <= version).map((m) => m.card));
  const found = new Map();
  for (const m of met) if (m.version > version && !before.has(m.card) && !found.has(m.card)) found.set(m.card, m);
  return [...found.values()];
}

/**
 * Where the game stands in the story: `done` moves made (`moves` their events), whether they
 * all followed it (`onStory`), and the story's next move (or null).
 */
export function progress(story, events) {
  const moves = events.filter((e) => MOVES.has(e.type));
  const onStory = moves.length <= story.moves.length && moves.every((e, i) => follows(e, story.moves[i]));
  return { done: moves.length, moves, onStory, next: onStory ? story.moves[moves.length] ?? null : null };
}

/**
 * The moment the game is at (`deck`: the ids of the edition's cards): `{key, bubbles}`; `key`
 * changes when the guide must speak anew. A bubble is {id, say (one of the guide's own
 * sentences) or step (a sentence of the story: `tutorial_step.<tutorial>.<step>`), cards:
 * [{card, how}], kind: "info" | "instruction" | "waiting" | "final", expected (the
 * instruction's command)}.
 */
export function moment(story, { data, events, you }, deck) {
  const view = data.view;
  const { done, moves, onStory, next } = progress(story, events);
  const met = metCards(events, you);
  const over = data.game.status === "over";
  const key = `${done} ${over} ${onStory} ${view?.current}`;
  const lastMine = [...moves].reverse().find((e) => e.seat === you);
  const since = lastMine ? lastMine.version : 0;
  const bubbles = [];
  const narrate = () => {
    const previous = story.moves[done - 1];
    if (previous && previous.seat !== you) bubbles.push({ id: `said-${done - 1}`, step: previous.coach, cards: [] });
  };
  const newCards = () => {
    const fresh = firstMetAfter(met, since).map(({ card, how }) => ({ card, how }));
    if (fresh.length) bubbles.push({ id: `cards-${done}`, say: "new_cards", cards: fresh, count: fresh.length });
  };
  if (!onStory) {
    bubbles.push({ id: "off", say: over ? "lost" : "off_script", cards: [], kind: over ? "final" : "info" });
    return { key, bubbles };
  }
  if (over) {
    if (view.game_winners.includes(you)) {
      narrate();
      newCards();
      bubbles.push({ id: "end", step: "end", cards: [] });
      const unmet = unmetCards(deck, met);
      if (unmet.length) bubbles.push({ id: "unmet", say: "unmet", cards: unmet.map((card) => ({ card, how: "unmet" })), count: unmet.length });
    } else {
      bubbles.push({ id: "end", say: "lost", cards: [] }); // given up: no more lessons
    }
    bubbles.push({ id: "final", say: "end_game", cards: [], kind: "final", tokens: view.seats[you].tokens });
    return { key, bubbles };
  }
  if (!next || view.current !== you) {
    bubbles.push({ id: `waiting-${done}`, say: "waiting", cards: [], kind: "waiting" });
    return { key, bubbles };
  }
  if (done === 0) {
    bubbles.push({ id: "welcome", say: "welcome", cards: [] });
    const dealt = met.filter((m) => m.how === "face_up");
    if (dealt.length) bubbles.push({ id: "face-up", say: "face_up", cards: dealt, count: dealt.length });
    bubbles.push({ id: "hand", say: "hand", cards: met.filter((m) => m.how !== "face_up") });
  } else {
    narrate();
    newCards();
  }
  bubbles.push({ id: `do-${done}`, step: next.coach, cards: [], kind: "instruction", expected: next.command });
  return { key, bubbles };
}

/** The edition's cards (`deck`: every card id) the learner has not met. */
function unmetCards(deck, met) {
  const seen = new Set(met.map((m) => m.card));
  return deck.filter((card) => !seen.has(card));
}

/**
 * The guide's word on a move the learner is about to send: null when it is the story's (or the
 * story is no longer followed), else {step}: the story's word on why it wants its own move.
 */
export function judgeMove(story, { data, events, you }, command) {
  const { next } = progress(story, events);
  if (!next || next.seat !== you || data.view?.current !== you) return null;
  if (command.type === "forfeit") return null; // giving up is the learner's to choose
  const expected = next.command;
  const sameMove = command.type === expected.type && command.card === expected.card
    && same(command.targets ?? [], expected.targets ?? []) && same(command.guess, expected.guess)
    && same(command.look, expected.look);
  return sameMove ? null : { step: `${next.coach}.why` };
}

/**
 * The guide's word on a card of the hand the learner tapped ({say} or {step}, with `card`):
 * wait for your turn, the rule that forbids it now, yes (the story's card), or why the story
 * wants another.
 */
export function judgeTap(story, { data, events, you }, card) {
  const { next } = progress(story, events);
  if (data.game.status === "over" || !next) return null;
  if (next.seat !== you || data.view?.current !== you) return { say: "tap_wait", card };
  const playable = new Set(data.legal.map((command) => command.card));
  if (!playable.has(card)) return { say: "tap_forced", card, forced: [...playable][0] };
  if (card === next.command.card) return { say: "tap_yes", card };
  return { step: `${next.coach}.why`, card };
}
