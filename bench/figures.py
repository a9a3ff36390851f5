"""Figures the benchmarks share: a list of durations as count, p50, p99 and max."""

from __future__ import annotations

from typing import Any

from bench.api import percentile


def latency_figures(seconds: list[float]) -> dict[str, Any]:
    """Durations (seconds) as their count and p50, p99 and max in milliseconds."""
    ordered = sorted(seconds)
    if not ordered:
        return {"count": 0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    return {
        "count": len(ordered),
        "p50_ms": round(percentile(ordered, 50) * 1000, 3),
        "p99_ms": round(percentile(ordered, 99) * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }
