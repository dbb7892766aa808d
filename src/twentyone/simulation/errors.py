"""Errors of the simulator (bad input to it), all :class:`twentyone.errors.TwentyOneError`."""

from __future__ import annotations

from twentyone.errors import TwentyOneError, UnsupportedRulesError

__all__ = ["CountingDataError", "SimulationError", "UnsupportedRulesError"]


class SimulationError(TwentyOneError):
    """A simulation request is malformed (rounds, seed, workers, bet ramp ...)."""


class CountingDataError(TwentyOneError):
    """A counting system, index set or bet ramp is malformed or does not fit the others."""
