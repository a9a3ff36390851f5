"""Provably fair deals: a public SHA-256 commitment to each shuffle, opened when the round ends."""

from __future__ import annotations

import hashlib


def dealt_order(
    set_aside: str, face_up: tuple[str, ...], hands: tuple[str, ...], deck: tuple[str, ...]
) -> tuple[str, ...]:
    """The whole deal in one sequence: set-aside, face-up cards, hands by seat, deck top first."""
    return (set_aside, *face_up, *hands, *deck)


def commitment(salt: str, order: tuple[str, ...]) -> str:
    """SHA-256 (hex) of the salt and the dealt order; published before anyone plays."""
    return hashlib.sha256(f"{salt}:{','.join(order)}".encode()).hexdigest()


def opens(commitment_hex: str, salt: str, order: tuple[str, ...]) -> bool:
    """Whether a revealed salt and order match the commitment published at the deal."""
    return commitment(salt, order) == commitment_hex
