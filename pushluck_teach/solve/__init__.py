"""Exact solvers: one generic turn solver, Markov-chain tools, whole-game solvers."""

from pushluck_teach.solve.turn import NextOutcome, PositionAnalysis, TurnSolver, expectation

__all__ = ["NextOutcome", "PositionAnalysis", "TurnSolver", "expectation"]
