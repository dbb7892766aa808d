"""Errors of the simulator (bad input to it), all :class:`twentyone.errors.TwentyOneError`."""

from __future__ import annotations

from twentyone.errors import InvalidRulesError, TwentyOneError


class SimulationError(TwentyOneError):
    """A simulation request is malformed (rounds, seed, workers, bet ramp ...)."""


class UnsupportedRulesError(InvalidRulesError):
    """A rule the simulator's kernels do not play (the vinte-e-um and exchange-only rules)."""


class CountingDataError(TwentyOneError):
    """A counting system, index set or bet ramp is malformed or does not fit the others."""
