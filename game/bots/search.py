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
cover its odds evenly; its odds read the seat's discards through the heuristic's habits and, at
two players, the other player's last play replayed (`game.bots.evidence`).

Budget: `Options.iterations` fixes the number of worlds (reproducible); otherwise the search
reads `time.perf_counter` and stops starting new worlds after `Options.budget_ms` (default 120).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from functools import cache

from game.bots.base import Options, decision_rng
from game.bots.beliefs import Beliefs
from game.bots.evidence import weigh_last_play
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
    # Who knows my card plays on that knowledge in the world too (a Guard named right).
    knowledge += [Knowledge(seen.seat, me, seen.card, "seen", view.round, view.turn)
                  for seen in view.seen_by]  # fmt: skip
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


def rollout(state: GameState, me: int, worth: Callable[[tuple[int, ...]], float]) -> float:
    """Play the round out with the heuristic; what its tokens are worth to me (`GameOdds`)."""
    while state.phase is Phase.ROUND:
        legal = legal_commands(state)
        state = step(state, heuristic_move(state, legal))[1]
    return worth(state.tokens)


@cache
def _odds_sorted(needs: tuple[int, ...]) -> tuple[float, ...]:
    """Each player's chance to win the game, `needs` (sorted) the tokens each still needs, if
    every round's winner were any of them alike."""
    if needs[0] <= 0:
        return (1.0, *(0.0 for _ in needs[1:]))
    odds = [0.0] * len(needs)
    for winner in range(len(needs)):
        after = list(needs)
        after[winner] -= 1
        order = sorted(range(len(needs)), key=lambda seat: after[seat])
        sub = _odds_sorted(tuple(after[seat] for seat in order))
        for place, seat in enumerate(order):
            odds[seat] += sub[place] / len(needs)
    return tuple(odds)


def game_odds(needs: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's chance to win the game if every round were won at random (`_odds_sorted`)."""
    order = sorted(range(len(needs)), key=lambda seat: needs[seat])
    sorted_odds = _odds_sorted(tuple(needs[seat] for seat in order))
    odds = [0.0] * len(needs)
    for place, seat in enumerate(order):
        odds[seat] = sorted_odds[place]
    return tuple(odds)


class GameOdds:
    """What a round's tokens are worth to one seat: its chance to win the game after them, so
    stopping a rival one token from winning counts more than gaining a token far behind.
    Scaled so that my token against the strongest rival's is worth 2, as in tokens."""

    def __init__(self, tokens: tuple[int, ...], target: int, me: int) -> None:
        self.target, self.me = target, me
        self.now = self.odds(tokens)
        mine = self.odds(tuple(t + (seat == me) for seat, t in enumerate(tokens)))
        theirs = min(
            (self.odds(tuple(t + (seat == rival) for seat, t in enumerate(tokens)))
             for rival in range(len(tokens)) if rival != me),
            default=self.now,
        )  # fmt: skip
        self.scale = 2.0 / ((mine - theirs) or 1.0)

    def odds(self, tokens: tuple[int, ...]) -> float:
        """My chance to win the game with these tokens."""
        return game_odds(tuple(max(self.target - t, 0) for t in tokens))[self.me]

    def __call__(self, tokens: tuple[int, ...]) -> float:
        return (self.odds(tokens) - self.now) * self.scale


def family(command: Command) -> object:
    """What a command chooses beyond what the heuristic can judge exactly: a card, players, a
    card kept (not the guess a Guard or Bishop names, nor the order of cards put back)."""
    if isinstance(command, PlayCard):
        return (command.card, command.targets, command.look)
    if isinstance(command, FinishChancellor):
        return command.keep
    return command


def candidates(judge: Judge, legal: list[Command], most: int = CANDIDATES) -> list[Command]:
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
    return list(best.values())[:most]


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
        self.candidates = options.candidates or CANDIDATES
        self.budget_ms = options.budget_ms if options.budget_ms is not None else DEFAULT_BUDGET_MS

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """The candidate with the best average result over the sampled worlds."""
        if len(legal) == 1:
            return legal[0]
        beliefs = weigh_last_play(view, Beliefs.from_view(view, habits=True))
        judge = Judge(view, beliefs)
        alive = candidates(judge, legal, self.candidates)
        favourite = alive[0]
        if len(alive) == 1 or view.you is None:
            return favourite
        rng = decision_rng(self.seed, view)
        results: dict[Command, list[float]] = {command: [] for command in alive}
        worth = GameOdds(tuple(seat.tokens for seat in view.seats), view.tokens_to_win, view.you)
        started = time.perf_counter()
        deadline = started + self.budget_ms / 1000.0
        worlds = 0
        spread = Spread(rng, len(view.seats))
        while len(alive) > 1 and self._more(worlds, started, deadline):
            spread.world = worlds
            world = sample_world(view, beliefs, rng, spread)
            for command in alive:
                results[command].append(rollout(step(world, command)[1], view.you, worth))
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
