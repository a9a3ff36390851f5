"""Every deal is committed to before play and opened when its round ends."""

from __future__ import annotations

import hashlib

from game import events as ev
from game import redact
from game.fairness import commitment, dealt_order, opens
from game.selfplay import play_game, random_chooser


def test_commitment_is_sha256_of_salt_and_order() -> None:
    """The published hash is SHA-256 over `salt:card,card,...` (checkable with any tool)."""
    order = ("guard", "priest", "princess")
    expected = hashlib.sha256(b"abc:guard,priest,princess").hexdigest()
    assert commitment("abc", order) == expected
    assert opens(expected, "abc", order)
    assert not opens(expected, "abd", order)
    assert not opens(expected, "abc", ("priest", "guard", "princess"))


def test_each_round_end_opens_the_deal_published_at_its_start() -> None:
    """RoundEnded reveals the salt and the dealt order; they open RoundStarted's commitment."""
    game = play_game("2019", 3, "fair", random_chooser(5))
    started = {e.round: e for e in game.events if isinstance(e, ev.RoundStarted)}
    ended = [e for e in game.events if isinstance(e, ev.RoundEnded)]
    assert ended and len(ended) == len(started)
    for end in ended:
        deal = started[end.round]
        assert end.dealt == dealt_order(deal.set_aside, deal.face_up, deal.hands, deal.deck)
        assert opens(deal.commitment, end.salt, end.dealt)
        public = redact(deal, None)
        assert public["commitment"] == deal.commitment and public["salt"] is None
    salts = {e.salt for e in ended}
    assert len(salts) == len(ended), "every deal has its own salt"


def test_the_same_seed_deals_the_same_game() -> None:
    """Randomness comes only from the game's seed: replaying it gives the same events."""
    first = play_game("premium", 6, "same", random_chooser(1))
    again = play_game("premium", 6, "same", random_chooser(1))
    other = play_game("premium", 6, "other", random_chooser(1))
    assert first.events == again.events
    assert first.events[1] != other.events[1]
