// A game's turns, from its events, and the replay's addresses that name them: each step of a
// replay is a round's deal or one turn (the draw, the play and all it caused), named by its
// round and turn (and its game, after a rematch at the same table): #/games/<id>/replay/r2/t5.

/**
 * The steps of these events, in order: {game, round, turn, first, last} (turn 0: the deal),
 * each shown at its `last` version. A step runs until the next one starts, or its game ends.
 */
export function turnSteps(events) {
  const steps = [];
  let game = 0;
  let open = null; // the step later events belong to
  for (const event of events) {
    if (event.type === "game_started") {
      game += 1;
      open = null;
    } else if (event.type === "round_started") {
      open = { game, round: event.round, turn: 0, first: event.version, last: event.version };
      steps.push(open);
    } else if (event.type === "turn_started" && open) {
      open = { game, round: open.round, turn: open.turn + 1, first: event.version, last: event.version, seat: event.seat };
      steps.push(open);
    } else if (open) {
      open.last = event.version;
      if (event.type === "game_ended") open = null;
    }
  }
  return steps;
}

/** The address part of a step or a round ("r2/t5", "g2/r1" after a rematch). */
export function stepAddress({ game, round, turn }) {
  return `${game > 1 ? `g${game}/` : ""}r${round}${turn === undefined ? "" : `/t${turn}`}`;
}

/** The step an address part names (a round alone: its deal), or -1. */
export function findStep(steps, part) {
  const found = /^(?:g(\d+)\/)?r(\d+)(?:\/t(\d+))?$/.exec(part || "");
  if (!found) return -1;
  const [game, round, turn] = [Number(found[1] || 1), Number(found[2]), Number(found[3] || 0)];
  return steps.findIndex((step) => step.game === game && step.round === round && step.turn === turn);
}

/** The step that shows `version` (the one whose versions hold it), or -1 before the first. */
export function stepAt(steps, version) {
  for (let index = steps.length - 1; index >= 0; index -= 1) if (steps[index].first <= version) return index;
  return -1;
}
