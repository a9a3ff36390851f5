"""The `search` policy: determinized Monte Carlo search over worlds consistent with the view.

Each iteration samples one hidden world (other hands, set-aside card, deck order) that agrees
with everything the seat has seen, builds a GameState from it, and plays every candidate
command there, then the rest of the round with the heuristic for every seat (each rollout seat
deciding from its own view of the sampled world). The same world serves every candidate, so
their scores differ by the command alone; a candidate the leader has beaten over the same worlds
(by BEATEN standard errors of the paired differences) is dropped, and the search ends when one
is left, so a clear choice costs few worlds and a close one gets them all.
Candidates are the heuristic's best command of each family (a card, its players: the guess a
Guard names is the heuristic's, whose odds are exact), none the heuristic scores hopeless.
Each unknown one-card hand is drawn along a low-discrepancy sequence, so few worlds still
cover its odds evenly; its odds read the seat's discards through the heuristic's habits.

Budget: `Options.iterations` fixes the number of worlds (reproducible); otherwise the search
reads `time.perf_counter` and stops starting new worlds after `Options.budget_ms` (default 120).
"""

from __future__ import annotations

import math
import random
import time

from game.bots.base import Options, decision_rng
from game.bots.beliefs import Beliefs
from game.bots.heuristic import Judge
from game.commands import Command, FinishChancellor, PlayCard
from game.decide import step
from game.legal import legal_commands
from game.state import Decision, GameState, Knowledge, Phase
from game.views import SeatView, view

DEFAULT_BUDGET_MS = 120.0
CANDIDATES = 4  # families of commands the heuristic ranks best are the only ones searched
RACE_FROM = 12  # from this many worlds on, every RACE_EVERY worlds, a beaten candidate is dropped
RACE_EVERY = 4
BEATEN = 2.0  # standard errors of the paired differences by which the leader beats a candidate
PRIOR = 0.02  # the heuristic's own pick wins near-ties
HOPELESS = 2.0  # a command the heuristic scores this far below its favourite is not searched


def sample_world(
    view: SeatView, beliefs: Beliefs, rng: random.Random, spread: Spread | None = None
) -> GameState:
    """A full hidden state drawn at random among those consistent with `view`.

    With `spread`, each unknown one-card hand is drawn at the point that seat's sequence gives
    (each world as likely as without, but the worlds of one search cover the odds evenly).
    """
    edition = beliefs.edition
    me = beliefs.you
    pool = [card for card, count in beliefs.unseen.items() for _ in range(count)]
    rng.shuffle(pool)
    hands: list[tuple[str, ...]] = []
    for seat in view.seats:
        if seat.seat == me:
            hands.append(tuple(view.hand or ()))
        elif seat.seat in beliefs.held:
            hands.append((beliefs.held[seat.seat],))
        elif spread is not None and seat.hand_size == 1:
            hands.append((_draw_at(pool, beliefs, seat.seat, spread.point(seat.seat)),))
        else:
            hands.append(tuple(_draw(pool, beliefs, seat.seat, rng) for _ in range(seat.hand_size)))
    set_aside = pool.pop() if pool else None
    deck = _deck(view, pool)
    knowledge = [
        Knowledge(me, f.seat, f.card, f.source, f.round, f.turn, f.still_held, f.depth)
        for f in view.known
    ]
    decision = Decision(view.decision) if view.decision else Decision.PLAY
    turn_seat = view.turn_seat if view.turn_seat is not None else me
    return GameState(
        edition=edition,
        players=view.players,
        seed="world",
        tokens=tuple(seat.tokens for seat in view.seats),
        phase=Phase.ROUND,
        round=view.round,
        turn=view.turn,
        turn_seat=turn_seat,
        decision=decision,
        deciding_seat=view.current if decision is Decision.REDRAW else None,
        hands=tuple(hands),
        discards=tuple(seat.discards for seat in view.seats),
        eliminated=tuple(seat.eliminated for seat in view.seats),
        protected=tuple(seat.protected for seat in view.seats),
        deck=deck,
        set_aside=set_aside,
        face_up=view.face_up,
        sycophant=view.sycophant,
        jesters=view.jesters,
        knowledge=tuple(knowledge),
        commitment=view.commitment,
        round_winners=view.round_winners,
        end_reason=view.end_reason,
        showdown=view.showdown,
    )


def _deck(view: SeatView, pool: list[str]) -> tuple[str, ...]:
    """The deck: the cards this seat put under it exactly where they lie, the pool around them."""
    known = {f.depth: f.card for f in view.known if f.seat is None and f.still_held}
    size = view.deck_size
    if len(pool) + len(known) != size or any(depth >= size for depth in known):
        return (*pool, *known.values())  # counts disagree: keep the known cards at the bottom
    rest = iter(pool)
    return tuple(known[size - 1 - index] if size - 1 - index in known else next(rest)
                 for index in range(size))  # fmt: skip


def _draw(pool: list[str], beliefs: Beliefs, seat: int, rng: random.Random) -> str:
    """Take `seat`'s card out of the shuffled pool, leaning as the beliefs do."""
    weights = [beliefs.lean(seat, card) for card in pool]
    index = rng.choices(range(len(pool)), weights)[0]
    return pool.pop(index)


def _draw_at(pool: list[str], beliefs: Beliefs, seat: int, point: float) -> str:
    """Take `seat`'s card out of the pool where `point` (in [0, 1)) falls on its odds, the
    cards in the edition's order."""
    counts: dict[str, int] = {}
    for card in pool:
        counts[card] = counts.get(card, 0) + 1
    odds = [(card, counts[card] * beliefs.lean(seat, card)) for card in beliefs.edition.cards
            if card in counts]  # fmt: skip
    mark = point * sum(weight for _, weight in odds)
    chosen = odds[-1][0]
    for card, weight in odds:
        if mark < weight:
            chosen = card
            break
        mark -= weight
    pool.remove(chosen)
    return chosen


class Spread:
    """A low-discrepancy sequence per seat: world n of a search draws seat s's card at
    frac(start_s + n * step_s), so the worlds cover the odds evenly, not by luck."""

    STEPS = tuple((math.sqrt(prime) % 1.0) for prime in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29))

    def __init__(self, rng: random.Random, seats: int) -> None:
        self.starts = [rng.random() for _ in range(seats)]
        self.world = 0

    def point(self, seat: int) -> float:
        """Where the current world draws `seat`'s card."""
        step = self.STEPS[seat % len(self.STEPS)]
        return (self.starts[seat] + self.world * step) % 1.0


def heuristic_move(state: GameState, legal: list[Command]) -> Command:
    """What the heuristic plays for the seat to act, from that seat's view of the world."""
    if len(legal) == 1:
        return legal[0]
    return Judge(view(state, state.current)).best(legal)


def rollout(state: GameState, me: int, before: tuple[int, ...]) -> float:
    """Play the round out with the heuristic; my tokens gained minus the best rival's."""
    while state.phase is Phase.ROUND:
        legal = legal_commands(state)
        state = step(state, heuristic_move(state, legal))[1]
    gains = [after - was for after, was in zip(state.tokens, before, strict=True)]
    rivals = max((gain for seat, gain in enumerate(gains) if seat != me), default=0)
    return float(gains[me] - rivals)


def family(command: Command) -> object:
    """What a command chooses beyond what the heuristic can judge exactly: a card, players, a
    card kept (not the guess a Guard or Bishop names, nor the order of cards put back)."""
    if isinstance(command, PlayCard):
        return (command.card, command.targets, command.look)
    if isinstance(command, FinishChancellor):
        return command.keep
    return command


def candidates(judge: Judge, legal: list[Command]) -> list[Command]:
    """The commands worth searching, the heuristic's favourite first: the best of each family
    (a guess's odds the beliefs give exactly; sampling them would only add noise), and none
    the heuristic scores hopeless beside the favourite (giving up the Princess)."""
    scored = sorted(((judge.score(command), command) for command in legal),
                    key=lambda pair: pair[0], reverse=True)  # fmt: skip
    floor = scored[0][0] - HOPELESS
    best: dict[object, Command] = {}
    for score, command in scored:
        if score >= floor:
            best.setdefault(family(command), command)
    return list(best.values())[:CANDIDATES]


def leader(
    alive: list[Command], results: dict[Command, list[float]], favourite: Command
) -> Command:
    """The candidate with the best mean so far, the heuristic's favourite winning near-ties."""

    def worth(command: Command) -> float:
        found = results[command]
        return sum(found) / max(len(found), 1) + (PRIOR if command == favourite else 0.0)

    return max(alive, key=worth)


def race(
    alive: list[Command], results: dict[Command, list[float]], favourite: Command
) -> list[Command]:
    """The candidates the leader has not beaten yet: beaten is behind it, over the same worlds,
    by more than BEATEN standard errors of the differences (or on every world alike)."""
    best = leader(alive, results, favourite)
    kept = [best]
    for command in alive:
        if command is best:
            continue
        gaps = [a - b for a, b in zip(results[best], results[command], strict=True)]
        n = len(gaps)
        mean = sum(gaps) / n
        spread = sum((gap - mean) ** 2 for gap in gaps) / (n - 1)
        if (mean >= 0 and mean * mean * n > BEATEN * BEATEN * spread) or spread == 0.0:
            continue
        kept.append(command)
    return kept


class SearchPolicy:
    """Determinized search with heuristic rollouts; see the module's docstring for budgets."""

    def __init__(self, seed: int | str = 0, options: Options | None = None) -> None:
        self.seed = seed
        options = options or Options()
        self.iterations = options.iterations
        self.budget_ms = options.budget_ms if options.budget_ms is not None else DEFAULT_BUDGET_MS

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """The candidate with the best average result over the sampled worlds."""
        if len(legal) == 1:
            return legal[0]
        beliefs = Beliefs.from_view(view, habits=True)
        judge = Judge(view, beliefs)
        alive = candidates(judge, legal)
        favourite = alive[0]
        if len(alive) == 1 or view.you is None:
            return favourite
        rng = decision_rng(self.seed, view)
        results: dict[Command, list[float]] = {command: [] for command in alive}
        before = tuple(seat.tokens for seat in view.seats)
        started = time.perf_counter()
        deadline = started + self.budget_ms / 1000.0
        worlds = 0
        spread = Spread(rng, len(view.seats))
        while len(alive) > 1 and self._more(worlds, started, deadline):
            spread.world = worlds
            world = sample_world(view, beliefs, rng, spread)
            for command in alive:
                results[command].append(rollout(step(world, command)[1], view.you, before))
            worlds += 1
            if worlds >= RACE_FROM and worlds % RACE_EVERY == 0:
                alive = race(alive, results, favourite)
        return leader(alive, results, favourite)

    def _more(self, worlds: int, started: float, deadline: float) -> bool:
        """Whether to sample another world: one more would still end before the deadline."""
        if self.iterations is not None:
            return worlds < self.iterations
        if worlds == 0:
            return True
        now = time.perf_counter()
        return now + (now - started) / worlds < deadline
