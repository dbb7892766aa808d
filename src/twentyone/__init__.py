"""twentyone: a blackjack-family games platform."""

__version__ = "0.1.0"
