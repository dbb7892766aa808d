"""The house-banked round shared by Casino and Online Blackjack."""

from twentyone.house.actions import Action, ActionKind
from twentyone.house.round import Box, Hand, Phase, Result, Round, check_bets

__all__ = ["Action", "ActionKind", "Box", "Hand", "Phase", "Result", "Round", "check_bets"]
