"""Monte Carlo simulation of house-banked blackjack: compiled kernels, card counting, workers.

The entry point is :func:`twentyone.simulation.runner.simulate`; see ``docs/simulation.md``.
"""
