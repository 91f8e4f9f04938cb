"""Simulation: plays the real engines with bots.  It checks the solver; it is never the source
of a displayed number."""

from pushluck_teach.sim.bots import Bot, OptimalTurnBot, ThresholdBot, make_bot
from pushluck_teach.sim.run import SimulationResult, simulate_games, simulate_turns

__all__ = [
    "Bot", "OptimalTurnBot", "SimulationResult", "ThresholdBot", "make_bot",
    "simulate_games", "simulate_turns",
]
