"""`loveletter bench queue`: a crowd of players entering quick play over a minute, across
several API processes (real gunicorn), with RQ workers sweeping (bots fill tables after the
wait) and then playing the games out.

Set-up (not timed): PLAYERS guest players. Then each enters at a random time within SECONDS
(`2019`, a random one to three of 2 to 6 seats; half ranked, the others with bots after 5 to 20
s; some cancel after a few seconds), on an API process of its own, and polls its entry every
2 s (as the web client does) until it is matched, cancelled or dropped. Once the crowd is
through, every matched game is played to its end: the bench plays each person's seat over HTTP
(the `medium` bot chooses from the seat's own view), the workers play the bots' seats, and the
ranked games are rated as they end.
Figures: time to a match (the entry's time to its match, by the store's clock) p50/p99, and as
the players saw it (to the poll that said so); players matched twice (seated at two tables, or
at a seat their entry doesn't name) and entries lost (answered 201 but gone, or matched with no
table), which must both be 0; cancels answered `cancelled` whose entry was matched anyway (0);
rating updates applied twice or missed (0), and the rating projection's games per second (a
`rebuild` of every game played, which must give the same ratings).
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import os
import random
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from rq import Queue

from bench import api as bench_api
from bench.client import JsonClient, guest_token
from bench.figures import latency_figures
from bench.processes import worker_processes
from bench.store import delete_namespace
from events.connection import as_text, connect, redis_url
from game.bots import make_policy
from game.legal import legal_commands
from game.table import waiting_on
from game.views import view
from play.context import Context
from play.records import rebuild, table_games
from play.settings import Settings
from service.cli.help import add_command
from service.gunicorn_conf import raise_open_files_limit
from service.schemas.commands import wire_command

EDITION = "2019"
POLL_SECONDS = 2.0
SETUP_THREADS = 16
PLAYERS_BOT = "medium"  # how the bench plays each person's seat
BOT_TURN_POLL_SECONDS = 0.05  # a look again at a game whose bot is to move
GAME_SECONDS = 600.0  # a game not over by then is counted unfinished
MOVE_FAILURES = 20  # failed answers after which a game is given up (counted unfinished)
RATING_WAIT_SECONDS = 120.0


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `queue` to the `bench` group."""
    parser = add_command(
        bench_subparsers,
        "queue",
        summary="a crowd entering quick play across API processes: time to a match, none twice",
        description="Make PLAYERS guest players who enter quick play over SECONDS (2 to 6"
        " seats, half ranked, some cancelling) across --apis gunicorn processes, with RQ workers"
        " sweeping; print the time to a match (p50, p99), players matched twice and entries"
        " lost (both must be 0), and, once every game is played to its end (each person's seat by"
        " the bench over HTTP, with the medium bot's choices), rating updates applied twice or"
        " missed and the rating projection's games per second.",
        examples=("loveletter bench queue --json", "loveletter bench queue --players 500"),
    )
    parser.add_argument("--players", type=int, default=10_000, help="players entering")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds they enter over")
    parser.add_argument("--apis", type=int, default=3, help="API processes (gunicorn)")
    parser.add_argument("--rq-workers", type=int, default=2, help="RQ worker processes")
    parser.add_argument("--threads", type=int, default=48, help="client threads")
    parser.add_argument("--cancel", type=float, default=0.1, help="share of players cancelling")
    parser.add_argument("--drain", type=float, default=60.0,
                        help="seconds after the last entry to wait for matches")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    result = run_queue_bench(
        players=args.players,
        seconds=args.seconds,
        apis=args.apis,
        rq_workers=args.rq_workers,
        threads=args.threads,
        cancel=args.cancel,
        drain=args.drain,
    )
    print(json.dumps(result) if args.json else table(result))
    return 0


@dataclass
class Wish:
    """One player's quick-play entry, what it asked, and what it saw."""

    token: str
    base: str
    seats: list[int]
    ranked: bool
    bots_after: int | None
    cancel_after: float | None
    entry: str | None = None
    state: str = "new"
    sent_at: float = 0.0
    seen_matched_at: float | None = None
    cancel_answer: str | None = None  # cancelled / matched (409) / other
    errors: list[str] = field(default_factory=list)


class Crowd:
    """The players' actions, each at its time, run by a pool of client threads."""

    def __init__(self, wishes: list[Wish], threads: int, until: float) -> None:
        self.wishes = wishes
        self.until = until
        self.heap: list[tuple[float, int, str, int]] = []
        self.lock = threading.Lock()
        self.seq = 0
        self.pool = ThreadPoolExecutor(threads)
        self.local = threading.local()
        self.requests = Counter[str]()
        self.failures = Counter[str]()

    def at(self, when: float, action: str, index: int) -> None:
        with self.lock:
            self.seq += 1
            heapq.heappush(self.heap, (when, self.seq, action, index))

    def client(self, base: str) -> JsonClient:
        clients = self.local.__dict__.setdefault("clients", {})
        if base not in clients:
            clients[base] = JsonClient(base)
        found: JsonClient = clients[base]
        return found

    def run(self) -> None:
        """Play every action until none is left (or the time is up)."""
        pending: list[Any] = []
        while True:
            with self.lock:
                due = self.heap[0][0] if self.heap else None
            if due is None:
                pending = [job for job in pending if not job.done()]
                if not pending:
                    return
                time.sleep(0.05)
                continue
            now = time.monotonic()
            if now > self.until + 30:
                return
            if due > now:
                time.sleep(min(due - now, 0.05))
                continue
            with self.lock:
                _, _, action, index = heapq.heappop(self.heap)
            pending.append(self.pool.submit(self.act, action, index))
            if len(pending) > 10_000:
                pending = [job for job in pending if not job.done()]

    def act(self, action: str, index: int) -> None:
        wish = self.wishes[index]
        try:
            getattr(self, action)(wish, index)
        except Exception as error:  # counted, never fatal to the crowd
            self.failures[f"{action}: {type(error).__name__}"] += 1
            wish.errors.append(f"{action}: {error}")

    def _call(self, wish: Wish, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        auth = {"Authorization": f"Bearer {wish.token}"}
        status, answer = self.client(wish.base).request(method, path, body, auth)
        self.requests[f"{method} {status}"] += 1
        return status, answer

    def enter(self, wish: Wish, index: int) -> None:
        body = {"edition": EDITION, "seats": wish.seats, "ranked": wish.ranked,
                "bots_after": wish.bots_after}  # fmt: skip
        wish.sent_at = time.time()
        status, answer = self._call(wish, "POST", "/queue", body)
        if status != 201:
            wish.state = f"refused {status}"
            return
        wish.entry = answer["id"]
        self._saw(wish, answer, index)
        if wish.state == "waiting" and wish.cancel_after is not None:
            self.at(time.monotonic() + wish.cancel_after, "cancel", index)

    def poll(self, wish: Wish, index: int) -> None:
        if wish.state != "waiting":
            return
        status, answer = self._call(wish, "GET", f"/queue/{wish.entry}")
        if status == 200:
            self._saw(wish, answer, index)
        else:
            self.at(time.monotonic() + POLL_SECONDS, "poll", index)

    def cancel(self, wish: Wish, index: int) -> None:
        if wish.state != "waiting":
            return
        status, answer = self._call(wish, "DELETE", f"/queue/{wish.entry}")
        if status == 200:
            wish.cancel_answer = answer["state"]
            wish.state = answer["state"]
        elif status == 409:
            wish.cancel_answer = "matched"
        else:
            wish.cancel_answer = f"status {status}"

    def _saw(self, wish: Wish, answer: Mapping[str, Any], index: int) -> None:
        wish.state = answer["state"]
        if wish.state == "matched":
            wish.seen_matched_at = time.time()
        elif wish.state == "waiting" and time.monotonic() < self.until:
            self.at(time.monotonic() + POLL_SECONDS, "poll", index)


def say(line: str) -> None:
    """A line on stderr: where a long run is."""
    print(f"bench queue: {line}", file=sys.stderr, flush=True)


def wishes_of(tokens: list[str], bases: list[str], cancel: float, seed: int = 7) -> list[Wish]:
    """What each player asks for."""
    rng = random.Random(seed)
    found = []
    for index, token in enumerate(tokens):
        ranked = index % 2 == 0
        found.append(
            Wish(
                token=token,
                base=bases[index % len(bases)],
                seats=sorted(rng.sample([2, 3, 4, 5, 6], rng.randint(1, 3))),
                ranked=ranked,
                bots_after=None if ranked else rng.randint(5, 20),
                cancel_after=rng.uniform(1.0, 8.0) if rng.random() < cancel else None,
            )
        )
    return found


@contextmanager
def _apis(env: Mapping[str, str], count: int) -> Iterator[list[str]]:
    """`count` gunicorn processes of the app (one worker each); their base URLs."""
    with ExitStack() as stack:
        bases = [
            stack.enter_context(bench_api.gunicorn_app(bench_api.COMMAND_APP, env, 1, 1))[0]
            for _ in range(count)
        ]
        yield bases


def set_up(bases: list[str], players: int) -> list[str]:
    """The players' tokens (made across the API processes)."""

    def player(index: int) -> str:
        client = JsonClient(bases[index % len(bases)])
        try:
            return guest_token(client, f"p{index % 1000}")
        finally:
            client.close()

    with ThreadPoolExecutor(SETUP_THREADS) as pool:
        return list(pool.map(player, range(players)))


def run_queue_bench(
    *,
    players: int = 10_000,
    seconds: float = 60.0,
    apis: int = 3,
    rq_workers: int = 2,
    threads: int = 48,
    cancel: float = 0.1,
    drain: float = 60.0,
) -> dict[str, Any]:
    """Set the players up, let them enter over `seconds`, check every match, let the games end
    and check their ratings."""
    if players < 2 or seconds <= 0 or apis < 1 or rq_workers < 1 or not 0 <= cancel <= 1:
        raise ValueError("players >= 2, seconds > 0, apis and rq workers >= 1, 0 <= cancel <= 1")
    raise_open_files_limit()
    url = redis_url()
    namespace = f"bench-queue-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "REDIS_URL": url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_QUEUE": namespace,
        "LOVELETTER_RATE_LIMIT_ADDRESS": bench_api.NO_LIMIT,
        "LOVELETTER_GUESTS_PER_HOUR": "off",  # every simulated player shares one address
        "LOVELETTER_BOT_TABLES": "off",
        "LOVELETTER_RATE_LIMIT_SEAT": bench_api.NO_LIMIT,
        "LOVELETTER_RATE_LIMIT_READS": bench_api.NO_LIMIT,  # every client here is 127.0.0.1
        "LOVELETTER_WAITERS_PER_ADDRESS": "off",
        "LOVELETTER_BOT_BUDGET_MS": "20",
    }
    redis = connect(url)
    queue = Queue(namespace, connection=redis)  # type: ignore[arg-type]
    ctx = Context.on(redis, Settings(namespace=namespace, queue=namespace))
    try:
        with worker_processes(url, queue, rq_workers, env), _apis(env, apis) as bases:
            started = time.monotonic()
            tokens = set_up(bases, players)
            setup_seconds = time.monotonic() - started
            wishes = wishes_of(tokens, bases, cancel)
            begin = time.monotonic() + 1.0
            crowd = Crowd(wishes, threads, begin + seconds + drain)
            rng = random.Random(11)
            for index in range(len(wishes)):
                crowd.at(begin + rng.uniform(0, seconds), "enter", index)
            say(f"{players} players set up in {setup_seconds:.0f} s; the crowd enters")
            crowd.run()
            crowd.pool.shutdown(wait=True)
            ran_seconds = time.monotonic() - begin
            checked = check(ctx, wishes)
            check_seconds = time.monotonic() - begin - ran_seconds
            say(f"{checked['games']} games matched; playing them out")
            ratings = play_out(ctx, wishes, checked.pop("seated"), threads)
    finally:
        queue.delete(delete_jobs=True)
        delete_namespace(redis, namespace)
        for key in redis.scan_iter(match=f"rq:*{namespace}*", count=1000):
            redis.delete(key)
        redis.close()
    states = Counter(wish.state for wish in wishes)
    return {
        "benchmark": "queue",
        "players": players,
        "seconds": seconds,
        "api_processes": apis,
        "rq_workers": rq_workers,
        "setup_seconds": round(setup_seconds, 1),
        "run_seconds": round(ran_seconds, 1),
        "check_seconds": round(check_seconds, 1),
        "total_seconds": round(time.monotonic() - started, 1),
        "states_seen": dict(states),
        "requests": dict(crowd.requests),
        "client_failures": dict(crowd.failures),
        **checked,
        "ratings": ratings,
        "targets": {
            "matched_twice": 0,
            "entries_lost": 0,
            "cancelled_then_matched": 0,
            "rating_updates_twice": 0,
            "rating_updates_missed": 0,
        },
        "meets_targets": checked["matched_twice"] == 0
        and checked["entries_lost"] == 0
        and checked["cancelled_then_matched"] == 0
        and ratings["updates_twice"] == 0
        and ratings["updates_missed"] == 0
        and ratings["rebuild_agrees"],
    }


def check(ctx: Context, wishes: list[Wish]) -> dict[str, Any]:
    """Every entry against the store and every game's seats: what matched, when, and whether
    any player was matched twice or any entry lost."""
    queue = ctx.quickplay
    server_s: list[float] = []  # seconds, by the store's clock
    client_s: list[float] = []  # seconds, as the player saw it
    lost = twice = cancelled_then_matched = 0
    by_player: dict[str, list[tuple[str, int]]] = {}
    seated: dict[str, dict[int, int]] = {}  # game -> seat -> wish index
    final = Counter[str]()
    for index, wish in enumerate(wishes):
        if wish.entry is None:
            continue
        raw: Any = queue.redis.hgetall(queue.entry_key(wish.entry))
        data = {as_text(k): as_text(v) for k, v in raw.items()}
        if not data:
            lost += 1
            continue
        final[data["state"]] += 1
        if wish.cancel_answer == "cancelled" and data["state"] == "matched":
            cancelled_then_matched += 1
        if data["state"] != "matched":
            continue
        if "opened" not in data:
            lost += 1  # matched, but its table never opened
            continue
        game, seat = data["game"], int(data["seat"])
        server_s.append((int(data["matched_at"]) - int(data["at"])) / 1000)
        if wish.seen_matched_at is not None:
            client_s.append(wish.seen_matched_at - wish.sent_at)
        by_player.setdefault(data["player"], []).append((game, seat))
        if seat in seated.setdefault(game, {}):
            twice += 1
        seated[game][seat] = index
    tables = {}
    for game in seated:
        table = ctx.games.load(game).table
        if table is None:
            lost += len(seated[game])
            continue
        tables[game] = table
    for player, places in by_player.items():
        if len(places) > 1:
            twice += len(places) - 1
        for game, seat in places:
            table = tables.get(game)
            if table is not None and table.seats[seat].player != player:
                twice += 1  # seated where the entry says another player sits
    humans = Counter(len(seats) for seats in seated.values())
    bots = sum(sum(1 for s in t.seats if s.bot) for t in tables.values())
    return {
        "entries": sum(1 for wish in wishes if wish.entry is not None),
        "final_states": dict(final),
        "games": len(tables),
        "ranked_games": sum(1 for t in tables.values() if getattr(t, "ranked", False)),
        "tables_by_people": dict(sorted(humans.items())),
        "bot_seats": bots,
        "time_to_match_ms": latency_figures(server_s),
        "time_to_match_seen_ms": latency_figures(client_s),
        "matched_twice": twice,
        "entries_lost": lost,
        "cancelled_then_matched": cancelled_then_matched,
        "seated": seated,
    }


def play_out(
    ctx: Context,
    wishes: list[Wish],
    seated: dict[str, dict[int, int]],
    threads: int,
) -> dict[str, Any]:
    """Every matched game played to its end: the bench plays each person's seat as its player
    would, over HTTP on the player's API process (the `medium` bot chooses, from that seat's own
    view), and the workers play the bots' seats. Then each player's rating is checked (one
    update per rated game of theirs) and the projection is timed again by a rebuild."""
    started = time.monotonic()
    with ThreadPoolExecutor(threads) as pool:
        played = list(pool.map(lambda game_id: play_game(ctx, wishes, game_id, seated[game_id]),
                               seated))  # fmt: skip
    play_seconds = time.monotonic() - started
    say(f"played out in {play_seconds:.0f} s; checking the ratings, then a rebuild")
    endings = Counter[str]()
    ranked: set[str] = set()
    for game_id in seated:
        table = ctx.games.load(game_id).table
        if getattr(table, "ranked", False):
            ranked.add(game_id)
        endings[ending(ctx, game_id)] += 1
    deadline = time.monotonic() + RATING_WAIT_SECONDS
    records: list[Any] = []
    while time.monotonic() < deadline:
        records = list(ctx.ratings.rated_games(EDITION)) if ranked else []
        if len({record.key.split("#")[0] for record in records}) >= len(ranked):
            break
        time.sleep(0.5)
    rated_games = {record.key.split("#")[0]: record for record in records}
    expected: Counter[str] = Counter()
    for record in rated_games.values():
        for seat in record.seats:  # a game someone left early moves only the leavers'
            if seat.player and (record.played or seat.left):
                expected[seat.player] += 1
    applied = ctx.ratings.all_ratings(EDITION)
    twice = sum(
        1 for player, n in expected.items() if player in applied and applied[player].games > n
    )
    missed = sum(
        1 for player, n in expected.items() if player not in applied or applied[player].games < n
    )
    missed += sum(len(seated[game]) for game in ranked if game not in rated_games)
    rebuild_started = time.monotonic()
    rebuilt = rebuild(ctx)
    rebuild_seconds = time.monotonic() - rebuild_started
    return {
        "games_played_out": len(seated),
        "endings": dict(endings),
        "moves_sent": sum(moves for moves, _ in played),
        "move_failures": sum(failures for _, failures in played),
        "play_out_seconds": round(play_seconds, 1),
        "ranked_games_ended": len(ranked),
        "rated_games": len(rated_games),
        "updates_expected": sum(expected.values()),
        "updates_twice": twice,
        "updates_missed": missed,
        "rebuild_games": sum(rebuilt.games.values()),
        "rebuild_rated_games": sum(rebuilt.rated.values()),
        "rebuild_seconds": round(rebuild_seconds, 2),
        "projection_games_per_second": round(
            sum(rebuilt.games.values()) / max(rebuild_seconds, 1e-9), 1
        ),
        "rebuild_agrees": ctx.ratings.all_ratings(EDITION) == applied,
    }


def play_game(
    ctx: Context, wishes: list[Wish], game_id: str, seats: Mapping[int, int]
) -> tuple[int, int]:
    """Play the people's seats of one game until it is over; (moves sent, failed answers)."""
    policy = make_policy(PLAYERS_BOT, game_id)
    clients: dict[str, JsonClient] = {}
    moves = failures = 0
    deadline = time.monotonic() + GAME_SECONDS
    try:
        while time.monotonic() < deadline and failures < MOVE_FAILURES:
            game = ctx.heads.load(game_id)  # the last state seen, and the stream's news
            table = game.table
            if table is None or table.status == "over":
                break
            waiting = waiting_on(table)
            if waiting is None or waiting.seat not in seats:  # a bot's turn: the workers play it
                time.sleep(BOT_TURN_POLL_SECONDS)
                continue
            assert table.game is not None
            command = policy.choose(
                view(table.game, waiting.seat, clues=table.clues), legal_commands(table.game)
            )
            wish = wishes[seats[waiting.seat]]
            client = clients.setdefault(wish.base, JsonClient(wish.base))
            headers = {"Authorization": f"Bearer {wish.token}",
                       "If-Match": f'"{game.version}"',
                       "Idempotency-Key": f"{game_id}-{game.version}"}  # fmt: skip
            try:
                status, _ = client.post(
                    f"/games/{game_id}/commands", wire_command(command), headers
                )
            except (OSError, http.client.HTTPException):  # counted; the next look says more
                client.close()
                status = 0
            if status == 200:
                moves += 1
            elif status != 412:  # 412: the game moved meanwhile (a bot's move landed first)
                failures += 1
    finally:
        for client in clients.values():
            client.close()
    return moves, failures


def ending(ctx: Context, game_id: str) -> str:
    """How a game ended: `won` (played to its end: someone won), `left` (its people left),
    or `unfinished`."""
    finished = table_games(ctx, game_id)
    if not finished:
        return "unfinished"
    seats = finished[-1].seats
    if any(seat.left for seat in seats if seat.player):
        return "left"
    return "won" if any(seat.winner for seat in seats) else "no winner"


def table(result: Mapping[str, Any]) -> str:
    """The figures as a few readable lines."""
    server, seen, ratings = (
        result["time_to_match_ms"],
        result["time_to_match_seen_ms"],
        result["ratings"],
    )
    return "\n".join(
        [
            f"Queue benchmark: {result['players']} players over {result['seconds']} s across"
            f" {result['api_processes']} API processes, {result['rq_workers']} RQ workers",
            f"  entries {result['entries']}: {result['final_states']}; games {result['games']}"
            f" ({result['ranked_games']} ranked), bot seats {result['bot_seats']}",
            f"  time to a match p50 {server['p50_ms']} ms, p99 {server['p99_ms']} ms (as seen by"
            f" polling every {POLL_SECONDS:g} s: p50 {seen['p50_ms']} ms, p99 {seen['p99_ms']} ms)",
            f"  matched twice {result['matched_twice']}, entries lost {result['entries_lost']},"
            f" cancelled then matched {result['cancelled_then_matched']}",
            f"  played out: {ratings['games_played_out']} games {ratings['endings']},"
            f" {ratings['moves_sent']} moves in {ratings['play_out_seconds']} s",
            f"  ratings: {ratings['rated_games']} rated games, updates twice"
            f" {ratings['updates_twice']}, missed {ratings['updates_missed']}; rebuild"
            f" {ratings['projection_games_per_second']} games/s, same ratings"
            f" {ratings['rebuild_agrees']}",
            f"  targets {'met' if result['meets_targets'] else 'NOT met'}",
        ]
    )
