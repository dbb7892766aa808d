"""Kernels for the tests only: the package's kernels called in ways the package itself never
does (a bare card draw; the general round loop with one box playing a chart).

They live here, not in ``twentyone.simulation.kernels``: the package ships only what a
simulation runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from twentyone.simulation import kernels
from twentyone.simulation.kernels import Array, kernel
from twentyone.simulation.runner import (
    KernelInputs,
    base_codes,
    chunk_generator_state,
    hand_workspace,
)


@kernel
def draw(rp: Array, shoe: Array, ss: Array, rng: Array) -> Any:
    """The next card (a rank) from the shoe, under the rules ``rp``."""
    return kernels.deal(rp[kernels.RP_SHUFFLE], rp[kernels.RP_INITIAL_COUNT], shoe, ss, rng)


def general_chunk(
    inputs: KernelInputs, seed: int, chunk: int, rounds: int
) -> npt.NDArray[np.int64]:
    """``runner.run_chunk`` through the kernel's general entry, ``simulate_rounds``, even for
    one box playing a chart (which the runner gives to ``simulate_one_box_rounds``)."""
    stats = np.zeros(kernels.ST_SIZE, dtype=np.int64)
    params = inputs.rule_params
    strategy = inputs.strategy
    kernels.simulate_rounds(
        params,
        inputs.boxes,
        chunk_generator_state(seed, chunk),
        rounds,
        base_codes(strategy),
        strategy.codes,
        strategy.thresholds,
        strategy.counts,
        inputs.cd_child,
        inputs.cd_codes,
        inputs.tags,
        inputs.ramp_thresholds,
        inputs.ramp_units,
        inputs.insurance_threshold,
        stats,
        np.zeros(52 * int(params[kernels.RP_DECKS]), dtype=np.int8),
        np.zeros(kernels.SS_SIZE, dtype=np.int64),
        hand_workspace(params, inputs.boxes),
        np.zeros((kernels.BW_SIZE, inputs.boxes), dtype=np.int64),
        np.zeros(0, dtype=np.int64),
    )
    return stats
