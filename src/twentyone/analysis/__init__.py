"""Exact analysis of house blackjack: dealer odds, hand values, splits, strategy, house edge.

The public entry points:

- :func:`twentyone.analysis.dealer.dealer_distribution`: the dealer's results for a shoe;
- :func:`twentyone.analysis.hand_ev.hand_ev`: every option of one hand against an up card;
- :func:`twentyone.analysis.house_edge.expected_return` / :func:`~.house_edge.analyze`: the
  overall EV under optimal composition-dependent play (CDZ- splits), by up card, and under
  the basic strategy;
- :func:`twentyone.analysis.strategy.basic_strategy`: the total-dependent chart;
- :func:`twentyone.analysis.exact.exact_expected_return`: exact fractions, infinite shoe.

Imports stay lazy (nothing heavy is loaded by ``import twentyone.analysis``).
"""
