"""Rules scenarios (docs/scenarios.md): a rigged round, commands and expectations, run on `game`."""

from scenarios.runner import ScenarioFailure, ScenarioResult, run_scenario

__all__ = ["ScenarioFailure", "ScenarioResult", "run_scenario"]
