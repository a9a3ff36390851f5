"""The table around a game: seats for humans and bots, the game's settings, and its start.

`decide` and `evolve` here wrap the rules' own: table commands open the table and seat
players, the game starts by itself once every seat is taken (when the table says so), and each
next round is dealt as soon as one ends.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from game.clues import Clue, follow, follow_all
from game.commands import (
    AnswerRedraw,
    Command,
    Deal,
    FinishChancellor,
    Forfeit,
    PlayCard,
    StartGame,
    StartRound,
)
from game.decide import step as step_rules
from game.editions import EDITIONS
from game.errors import IllegalCommand
from game.events import (
    CardPlayed,
    ChancellorReturned,
    Event,
    GameEnded,
    GameStarted,
    RedrawAnswered,
    RoundEnded,
)
from game.evolve import evolve as evolve_game
from game.state import GameState, Phase

ABANDON_AFTER = 3  # default: a seat whose turn timed out this many times in a row is abandoned
TAKEOVER_BOT = "heuristic"  # default: the bot that takes over an abandoned seat


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One seat: a bot (its policy's name) or a human, with the name and token hash once taken,
    and the player (an id) who holds it, when one does."""

    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    webhook: str | None = None  # where to tell this seat it must act
    webhook_secret: str | None = None  # signs those calls; never shown to anyone
    player: str | None = None  # the player holding the seat (None: a seat token alone)
    timeouts: int = 0  # the seat's turns timed out in a row
    left_by: str | None = None  # who left it to a bot: their player id ("" without one)
    since: int = 0  # the table's version when its player sat down (see game/audiences.py)

    @property
    def open(self) -> bool:
        """Whether nobody sits here yet."""
        return self.name is None


@dataclass(frozen=True)
class Table:
    """A game's table: its settings, its seats and, once started, the game itself."""

    edition: str
    seats: tuple[TableSeat, ...]
    seed: str
    first_player: int | None = None
    turn_seconds: int | None = None  # per-move time limit; None: no limit
    on_timeout: str = "bot"  # "bot": a bot moves for the seat; "forfeit": the seat forfeits
    autostart: bool = True
    game: GameState | None = None
    results: tuple[tuple[int, ...], ...] = ()  # the winners of each earlier game at this table
    seeded: bool = False  # its creator chose the seed: every deal is known to them (unfair)
    abandon_after: int = ABANDON_AFTER  # turns timed out in a row that abandon a seat
    takeover_bot: str = TAKEOVER_BOT  # the bot that takes over an abandoned seat
    spectator_chat: bool = False  # spectators (players without a seat here) may chat too
    timed_out: int | None = None  # the seat whose move is being made for it (a time-out)
    ranked: bool = False  # its games move its players' ratings (see docs/ratings.md)
    tutorial: str | None = None  # the tutorial it is: one round on a prepared deal, unlisted
    version: int = 0  # how many events the table was folded from
    started_at: int = 0  # the version of its current game's `game_started` (0: none yet)
    clues: tuple[Clue, ...] = ()  # the round's public clues, followed beside the game

    def with_game(self, game: GameState, version: int, clues: tuple[Clue, ...]) -> Table:
        """The table with its game moved on (a quick `replace`: this runs for every event)."""
        attributes = self.__dict__.copy()
        attributes["game"] = game
        attributes["version"] = version
        attributes["clues"] = clues
        new = object.__new__(Table)
        object.__setattr__(new, "__dict__", attributes)
        return new

    @property
    def open_seats(self) -> int:
        """Seats still waiting for a player."""
        return sum(seat.open for seat in self.seats)

    @property
    def humans(self) -> int:
        """Seats a person holds (or will: open human seats)."""
        return sum(seat.bot is None for seat in self.seats)

    def seat_of_player(self, player: str) -> int | None:
        """The seat this player holds at the table, if any."""
        for index, seat in enumerate(self.seats):
            if seat.player == player:
                return index
        return None

    def seat_of(self, asker: Asker) -> int | None:
        """The seat the asker holds: its player's, else its token's (the hashes compared in
        constant time, every seat's), or None."""
        if asker.player is not None and (held := self.seat_of_player(asker.player)) is not None:
            return held
        if not asker.token_hash:
            return None
        found = None
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(
                seat.token_hash, asker.token_hash
            ):
                found = index
        return found

    @property
    def status(self) -> str:
        """open, playing or over."""
        if self.game is None:
            return "open"
        return "over" if self.game.phase is Phase.OVER else "playing"


# Who sends a command.


@dataclass(frozen=True, slots=True)
class Asker:
    """Who sends a command from outside the table: a seat's token (by its hash) or a player,
    each acting for the seat it holds."""

    token_hash: str | None = None
    player: str | None = None


# Table commands.


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Open a table: one entry per seat, a bot policy's name or None for a human seat."""

    edition: str
    bots: tuple[str | None, ...]
    seed: str
    first_player: int | None = None
    turn_seconds: int | None = None
    on_timeout: str = "bot"
    autostart: bool = True
    host: TakeSeat | None = None  # the creator, seated at once
    seeded: bool = False  # `seed` was chosen by the creator, not drawn by the server
    abandon_after: int = ABANDON_AFTER
    takeover_bot: str = TAKEOVER_BOT
    ranked: bool = False  # its games are rated: people only, dealt from the server's secrets
    seated: tuple[TakeSeat, ...] = ()  # more players seated at once (a quick-play match)
    spectator_chat: bool = False
    tutorial: str | None = None  # the tutorial this table plays (docs/tutorial.md)
    deal: Deal | None = None  # the first round's prepared deal: a tutorial's, never a request's


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """Sit at a human seat (None: the first open one) under a name; the token stays secret.
    `player`: the player who takes it (one seat per player at a table)."""

    seat: int | None
    name: str
    token_hash: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class LeaveSeat:
    """Leave a seat before the game starts."""

    seat: int


@dataclass(frozen=True, slots=True)
class AbandonSeat:
    """Leave a game in play: a bot (the table's `takeover_bot`) plays the seat from now on."""

    seat: int


@dataclass(frozen=True, slots=True)
class BeginGame:
    """Start the game once every seat is taken (tables that don't start by themselves)."""


@dataclass(frozen=True, slots=True)
class TimeOut:
    """A seat's time to act ran out: `move` is the one made for it, None when it forfeits."""

    seat: int
    move: PlayCard | FinishChancellor | AnswerRedraw | None = None


@dataclass(frozen=True, slots=True)
class SetWebhook:
    """Have this seat told (by a signed HTTP call) whenever it must act; url None stops it."""

    seat: int
    url: str | None
    secret: str | None = None


@dataclass(frozen=True, slots=True)
class PlayAgain:
    """Start a new game at this table, same seats, once the last one is over (never at a
    tutorial's table: a tutorial is played once).

    `seed` is the new game's secret random source; None derives it from the table's seed
    (`<seed>#<n>`), which anyone who saw the first game's seed can compute: for seeded tables.
    """

    seed: str | None = None


TableCommand = (
    OpenTable | TakeSeat | LeaveSeat | AbandonSeat | BeginGame | TimeOut | PlayAgain | SetWebhook
)


@dataclass(frozen=True, slots=True)
class Asked:
    """A command sent by `by`: decided only when `by` holds the seat it acts for (any seat, for
    a command of the whole table) in the table it is applied to, whatever version that is."""

    by: Asker
    command: TableCommand | Command


def _own_seat(command: Any) -> int | None:
    return int(command.seat)


def _any_seat(_: Any) -> None:
    return None


# The seat each command a seat may send acts for (None: any seat of the table may send it).
# Opening a table, taking a seat (it carries its own player) and time-outs are no seat's.
ACTS_FOR: dict[type, Callable[[Any], int | None]] = {
    LeaveSeat: _own_seat,
    AbandonSeat: _own_seat,
    SetWebhook: _own_seat,
    PlayCard: _own_seat,
    FinishChancellor: _own_seat,
    AnswerRedraw: _own_seat,
    Forfeit: _own_seat,
    BeginGame: _any_seat,
    PlayAgain: _any_seat,
}


def check_asker(table: Table | None, asked: Asked) -> None:
    """Refuse the command unless its asker holds the seat it acts for at this table."""
    acts_for = ACTS_FOR.get(type(asked.command))
    if acts_for is None:
        raise TypeError(f"no seat sends {type(asked.command).__name__}")
    if table is None:
        raise IllegalCommand("no-table", "This game does not exist.")
    held = table.seat_of(asked.by)
    if held is None:
        raise IllegalCommand(
            "unauthorized", "This token holds no seat of this game (it was left, or never taken)."
        )
    seat = acts_for(asked.command)
    if seat is not None and seat != held:
        raise IllegalCommand("forbidden", f"Your token is not seat {seat}'s.")


# Table events.


@dataclass(frozen=True, slots=True)
class TableOpened:
    """A table was opened with these settings."""

    type: ClassVar[str] = "table_opened"
    edition: str
    bots: tuple[str | None, ...]
    seed: str
    first_player: int | None
    turn_seconds: int | None
    on_timeout: str
    autostart: bool
    seeded: bool = False
    abandon_after: int = ABANDON_AFTER
    takeover_bot: str = TAKEOVER_BOT
    ranked: bool = False
    spectator_chat: bool = False
    tutorial: str | None = None


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """A player sat down; only the hash of their secret token is kept (and their player id,
    when a player took it)."""

    type: ClassVar[str] = "seat_taken"
    seat: int
    name: str
    token_hash: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """A player left before the game started."""

    type: ClassVar[str] = "seat_left"
    seat: int


@dataclass(frozen=True, slots=True)
class TurnTimedOut:
    """The seat that had to act ran out of time; what follows was done for it."""

    type: ClassVar[str] = "turn_timed_out"
    seat: int


@dataclass(frozen=True, slots=True)
class WebhookSet:
    """A seat's webhook (None: removed) and the secret its calls are signed with."""

    type: ClassVar[str] = "webhook_set"
    seat: int
    url: str | None
    secret: str | None


@dataclass(frozen=True, slots=True)
class SeatTakenOver:
    """A bot took over a seat in play: its player left the game (`abandoned`) or let its turn
    time out too many times in a row (`timed-out`)."""

    type: ClassVar[str] = "seat_taken_over"
    seat: int
    bot: str
    reason: str


TableEvent = TableOpened | SeatTaken | SeatLeft | TurnTimedOut | WebhookSet | SeatTakenOver
TAKEOVER_REASONS = ("abandoned", "timed-out")
TIMEOUT_CHOICES = ("bot", "forfeit")
STATUSES = ("open", "playing", "over")  # what Table.status says


def decide(table: Table | None, command: TableCommand | Command | Asked) -> list[Any]:
    """The events of a table command or a rules command, with what follows by itself."""
    return step(table, command)[0]


def step(table: Table | None, command: TableCommand | Command | Asked) -> tuple[list[Any], Table]:
    """Decide a command and also return the table after its events (each evolved once). An
    `Asked` command is decided only if its asker holds the seat it acts for, in `table`."""
    if type(command) is Asked:
        check_asker(table, command)
        command = command.command
    handler = _HANDLERS.get(type(command))
    if handler is None:
        return _step_play(table, command)  # type: ignore[arg-type]
    if table is None and not isinstance(command, OpenTable):
        raise IllegalCommand("no-table", "This game does not exist.")
    events = handler(table, command)
    after = table
    for event in events:
        after = evolve(after, event)
    assert after is not None
    return events, after


def _play(table: Table | None, command: Command) -> list[Any]:
    """A rules command, followed by the next round's deal when a round ended."""
    return _step_play(table, command)[0]


def _step_play(table: Table | None, command: Command) -> tuple[list[Any], Table]:
    """`_play`'s events and the table after them (the rules fold their own state)."""
    if table is None or table.game is None:
        raise IllegalCommand("game-not-started", "The game has not started: seats are open.")
    events, state = step_rules(table.game, command)
    if state.phase is Phase.BETWEEN_ROUNDS:
        if table.tutorial is None:
            dealt, state = step_rules(state, StartRound())
            events = [*events, *dealt]
        else:  # a tutorial is one round: its winners win the game
            ended = GameEnded(state.round_winners)
            state = evolve_game(state, ended)
            events = [*events, ended]
    table = table.with_game(
        state, table.version + len(events), follow_all(table.clues, events, state)
    )
    if table.timed_out is not None or any(seat.timeouts for seat in table.seats):
        for event in events:  # as `evolve` counts a seat's time-outs in a row
            if type(event) in _MOVES:
                table = _moved(table, event.seat)  # type: ignore[union-attr]
    return events, table


@dataclass(frozen=True, slots=True)
class Waiting:
    """The seat a game waits on: a bot's, or a human's with its time limit (None: no limit)."""

    seat: int
    bot: str | None
    turn_seconds: int | None


def waiting_on(table: Table | None) -> Waiting | None:
    """Who must act now, if anyone (nobody before the start, between games, or once over)."""
    if table is None or table.game is None or table.game.phase is not Phase.ROUND:
        return None
    seat = table.game.current
    if seat is None:
        return None
    return Waiting(seat, table.seats[seat].bot, table.turn_seconds)


def evolve(table: Table | None, event: Any) -> Table:
    """The table after an event (table events here; rules events go to the game)."""
    version = 1 if table is None else table.version + 1
    handler = _EVOLVERS.get(type(event))
    if handler is not None:
        return replace(handler(table, event), version=version)
    assert table is not None
    if type(event) in _MOVES:
        table = _moved(table, event.seat)
    if isinstance(event, GameStarted):
        results = table.results
        if table.game is not None:
            results = (*results, table.game.game_winners)
        table = replace(table, results=results, game=None, started_at=version)
    game = evolve_game(table.game, event)
    return table.with_game(game, version, follow(table.clues, event, game))


def _open(table: Table | None, command: OpenTable) -> list[Any]:
    if table is not None:
        raise IllegalCommand("table-exists", "This game already exists.")
    edition = EDITIONS.get(command.edition)
    if edition is None:
        raise IllegalCommand("unknown-edition", f"There is no edition {command.edition!r}.")
    if not edition.min_players <= len(command.bots) <= edition.max_players:
        raise IllegalCommand(
            "wrong-player-count",
            f"{edition.id} is played by {edition.min_players} to {edition.max_players} players.",
        )
    first = command.first_player
    if first is not None and not 0 <= first < len(command.bots):
        raise IllegalCommand("unknown-seat", _no_seat(first, len(command.bots)))
    if command.on_timeout not in TIMEOUT_CHOICES:
        raise IllegalCommand("bad-setting", "on_timeout is 'bot' or 'forfeit'.")
    if command.turn_seconds is not None and command.turn_seconds < 1:
        raise IllegalCommand("bad-setting", "turn_seconds must be at least 1.")
    if command.abandon_after < 1:
        raise IllegalCommand("bad-setting", "abandon_after must be at least 1.")
    if command.ranked and any(bot is not None for bot in command.bots):
        raise IllegalCommand("bad-setting", "A ranked table has no bot seats.")
    if command.ranked and command.seeded:
        raise IllegalCommand("bad-setting", "A ranked table is dealt from the server's secrets.")
    if (command.deal is None) != (command.tutorial is None) or (command.deal and command.ranked):
        raise IllegalCommand("bad-setting", "A prepared deal is a tutorial's, and only its.")
    opened = TableOpened(
        command.edition,
        command.bots,
        command.seed,
        first,
        command.turn_seconds,
        command.on_timeout,
        command.autostart,
        command.seeded,
        command.abandon_after,
        command.takeover_bot,
        command.ranked,
        command.spectator_chat,
        command.tutorial,
    )
    events: list[Any] = [opened]
    new_table = evolve(None, opened)
    takes = (command.host, *command.seated) if command.host is not None else command.seated
    for take in takes:
        taken = _take(new_table, take, autostart=False)
        events += taken
        new_table = evolve(new_table, taken[0])
    started = _start_if_full(new_table, command.deal)
    if command.deal is not None and not started:
        raise IllegalCommand("bad-setting", "A tutorial's table is full and starts at once.")
    return events + started


def _take(table: Table, command: TakeSeat, autostart: bool = True) -> list[Any]:
    if table.game is not None:
        raise IllegalCommand("game-started", "The game has already started.")
    humans_open = [i for i, seat in enumerate(table.seats) if seat.open and seat.bot is None]
    if not humans_open:
        raise IllegalCommand("no-open-seat", "Every seat is taken.")
    seat = humans_open[0] if command.seat is None else command.seat
    if not 0 <= seat < len(table.seats):
        raise IllegalCommand("unknown-seat", _no_seat(seat, len(table.seats)))
    if seat not in humans_open:
        raise IllegalCommand("seat-taken", f"Seat {seat} is not open to players.")
    if table.ranked and command.player is None:
        raise IllegalCommand("player-required", "A ranked table's seats are taken by players.")
    if command.player is not None and table.seat_of_player(command.player) is not None:
        raise IllegalCommand("player-seated", "This player already holds a seat at this table.")
    name = command.name.strip()
    if not name or name in {s.name for s in table.seats}:
        raise IllegalCommand("name-taken", f"The name {command.name!r} is empty or taken.")
    taken = SeatTaken(seat, name, command.token_hash, command.player)
    if not autostart:
        return [taken]
    return [taken, *_start_if_full(evolve(table, taken))]


def _no_seat(seat: int, seats: int) -> str:
    return f"There is no seat {seat}: this table has seats 0 to {seats - 1}."


def _leave(table: Table, command: LeaveSeat) -> list[Any]:
    if table.game is not None:
        raise IllegalCommand("game-started", "The game has already started.")
    if not 0 <= command.seat < len(table.seats) or table.seats[command.seat].open:
        raise IllegalCommand("seat-not-taken", f"Nobody sits at seat {command.seat}.")
    return [SeatLeft(command.seat)]


def _abandon(table: Table, command: AbandonSeat) -> list[Any]:
    if table.status != "playing":
        raise IllegalCommand("game-not-in-play", "Only a game in play can be abandoned.")
    seats = table.seats
    if not 0 <= command.seat < len(seats) or seats[command.seat].bot is not None:
        raise IllegalCommand("seat-not-taken", f"No player holds seat {command.seat}.")
    return _take_over(table, command.seat, "abandoned")


def _take_over(table: Table, seat: int, reason: str) -> list[Any]:
    """A bot takes the seat; a table where no person is left ends at once, nobody winning."""
    over = SeatTakenOver(seat, table.takeover_bot, reason)
    table = evolve(table, over)
    if table.humans or table.game is None or table.game.phase is Phase.OVER:
        return [over]
    game = table.game
    ended: list[Any] = []
    if game.phase is Phase.ROUND:  # the round stops unfinished; its deal is revealed as usual
        ended.append(
            RoundEnded(
                game.round, (), "abandoned", (), game.set_aside, game.deck, game.dealt, game.salt
            )
        )
    return [over, *ended, GameEnded(())]


def _begin(table: Table, _: BeginGame) -> list[Any]:
    if table.game is not None:
        raise IllegalCommand("game-started", "The game has already started.")
    if table.open_seats:
        raise IllegalCommand("seats-open", f"{table.open_seats} seat(s) are still open.")
    return _start(table)


def _time_out(table: Table, command: TimeOut) -> list[Any]:
    game = table.game
    if game is None or game.phase is not Phase.ROUND or game.current != command.seat:
        raise IllegalCommand("not-your-turn", "That seat has nothing to do now.")
    if table.on_timeout == "forfeit":
        if command.move is not None:
            raise IllegalCommand("unexpected-move", "At this table a late seat forfeits.")
        return [TurnTimedOut(command.seat), *_play(table, Forfeit(command.seat))]
    if command.move is None or command.move.seat != command.seat:
        raise IllegalCommand("move-required", "At this table a bot moves for a late seat.")
    timed_out = TurnTimedOut(command.seat)
    played, after = _step_play(evolve(table, timed_out), command.move)
    events = [timed_out, *played]
    seat = after.seats[command.seat]
    if seat.bot is None and seat.timeouts >= table.abandon_after and after.status == "playing":
        events += _take_over(after, command.seat, "timed-out")
    return events


def _set_webhook(table: Table, command: SetWebhook) -> list[Any]:
    if not 0 <= command.seat < len(table.seats) or table.seats[command.seat].token_hash is None:
        raise IllegalCommand("seat-not-taken", f"No player sits at seat {command.seat}.")
    if (command.url is None) != (command.secret is None):
        raise IllegalCommand("bad-setting", "A webhook needs both a URL and a secret.")
    return [WebhookSet(command.seat, command.url, command.secret)]


def _play_again(table: Table, command: PlayAgain) -> list[Any]:
    if table.game is None or table.game.phase is not Phase.OVER:
        raise IllegalCommand("game-not-over", "The game at this table is still being played.")
    if table.tutorial is not None:
        raise IllegalCommand("tutorial-over", "A tutorial is played once: start a new one.")
    return _start(table, command.seed)


def _start_if_full(table: Table, deal: Deal | None = None) -> list[Any]:
    return _start(table, deal=deal) if table.autostart and table.open_seats == 0 else []


def _start(table: Table, seed: str | None = None, deal: Deal | None = None) -> list[Any]:
    names = tuple(seat.name or "" for seat in table.seats)
    number = len(table.results) + (2 if table.game is not None else 1)  # this game's number
    if seed is None:
        seed = table.seed if number == 1 else f"{table.seed}#{number}"
    first = table.first_player if number == 1 else None
    return list(step_rules(None, StartGame(table.edition, names, seed, first, deal))[0])


def _opened(_: None, e: TableOpened) -> Table:
    seats = tuple(
        TableSeat(bot, f"{bot}-bot-{seat + 1}" if bot else None) for seat, bot in enumerate(e.bots)
    )
    return Table(
        e.edition,
        seats,
        e.seed,
        e.first_player,
        e.turn_seconds,
        e.on_timeout,
        e.autostart,
        seeded=e.seeded,
        abandon_after=e.abandon_after,
        takeover_bot=e.takeover_bot,
        ranked=e.ranked,
        spectator_chat=e.spectator_chat,
        tutorial=e.tutorial,
    )


def _seat_taken(table: Table, e: SeatTaken) -> Table:
    seats = list(table.seats)
    seats[e.seat] = TableSeat(None, e.name, e.token_hash, player=e.player, since=table.version + 1)
    return replace(table, seats=tuple(seats))


def _seat_taken_over(table: Table, e: SeatTakenOver) -> Table:
    seats = list(table.seats)
    held = seats[e.seat]
    left_by = "" if held.player is None else held.player
    seats[e.seat] = TableSeat(e.bot, held.name, left_by=left_by, since=held.since)
    timed_out = None if table.timed_out == e.seat else table.timed_out
    return replace(table, seats=tuple(seats), timed_out=timed_out)


def _turn_timed_out(table: Table, e: TurnTimedOut) -> Table:
    seats = list(table.seats)
    seats[e.seat] = replace(seats[e.seat], timeouts=seats[e.seat].timeouts + 1)
    return replace(table, seats=tuple(seats), timed_out=e.seat)


def _moved(table: Table, seat: int) -> Table:
    """A seat moved: by itself (its time-outs in a row are over) or for it, after a time-out."""
    if table.timed_out == seat:
        return replace(table, timed_out=None)
    if seat < len(table.seats) and table.seats[seat].timeouts:
        seats = list(table.seats)
        seats[seat] = replace(seats[seat], timeouts=0)
        return replace(table, seats=tuple(seats))
    return table


_MOVES = frozenset({CardPlayed, ChancellorReturned, RedrawAnswered})


def _webhook_set(table: Table, e: WebhookSet) -> Table:
    seats = list(table.seats)
    seats[e.seat] = replace(seats[e.seat], webhook=e.url, webhook_secret=e.secret)
    return replace(table, seats=tuple(seats))


def _seat_left(table: Table, e: SeatLeft) -> Table:
    seats = list(table.seats)
    seats[e.seat] = TableSeat()
    return replace(table, seats=tuple(seats))


_HANDLERS: dict[type, Callable[[Any, Any], list[Any]]] = {
    OpenTable: _open,
    TakeSeat: _take,
    LeaveSeat: _leave,
    AbandonSeat: _abandon,
    BeginGame: _begin,
    TimeOut: _time_out,
    PlayAgain: _play_again,
    SetWebhook: _set_webhook,
}

_EVOLVERS: dict[type, Callable[[Any, Any], Table]] = {
    TableOpened: _opened,
    SeatTaken: _seat_taken,
    SeatLeft: _seat_left,
    TurnTimedOut: _turn_timed_out,
    WebhookSet: _webhook_set,
    SeatTakenOver: _seat_taken_over,
}

AnyEvent = Event | TableEvent
