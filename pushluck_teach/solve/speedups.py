"""What a turn model may offer the solver beyond the rules of its turn: optional speed-ups.

A game states its turn once, as a :class:`~pushluck_teach.games.base.TurnModel`: the start,
the legal actions, the weighted transitions, the payoffs and the proved stopping rule.  That is
all the solver of :mod:`.turn` needs to give every number exactly.  Everything in this module is
optional and concerns only how fast, or whether at a click, a number is found:

* :class:`EstimatesStates`: about how many states a solve from a position visits, said at once,
  so a position too large for its budget is refused up front (and a progress bar is sized);
* :class:`OffersLevelGraph`: the turn on NumPy arrays, solved a level at a time
  (:mod:`.levels`, whose docstring states the protocol and the proof that the values are the
  recursion's bit for bit);
* :class:`ShipsTurnTable` and :class:`ShipsStartValues`: float values computed once and shipped
  with the package (:mod:`.turn_tables`), for turns asked again and again or too large to solve
  at a click.

These are structural protocols: a model opts in by defining the methods, and the games never
import this module (they sit below ``solve/``).  The functions below read a model's offer, or
the answer of a model that offers nothing (no estimate, no graph, no table); the solver never
calls the methods directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from pushluck_teach.games.base import TurnModel


@runtime_checkable
class EstimatesStates(Protocol):
    """A model that can say at once about how many states solving from a position visits."""

    def estimated_states(self, state: Any) -> int | None:
        """The estimate (``None``: unknown at this position)."""


@runtime_checkable
class OffersLevelGraph(Protocol):
    """A model that describes its turn on arrays for :mod:`.levels`."""

    def level_graph(self) -> Any:
        """The level graph (``None``: none for this variant, or NumPy is missing).  Import NumPy
        lazily: the static site has none."""


@runtime_checkable
class ShipsTurnTable(Protocol):
    """A model whose whole turn's float values ship as a table (:mod:`.turn_tables`)."""

    def shared_table_key(self) -> str | None:
        """A name for this turn's state space: models with the same key have the same states
        and values.  It includes the model's version, changed whenever the states or values
        could change.  ``None``: no table for this variant."""

    def shipped_values_model(self) -> TurnModel[Any]:
        """The model whose start is the start of the shipped values (the turn's own start)."""


@runtime_checkable
class ShipsStartValues(Protocol):
    """A model of a family of turn starts too large to solve at a click, whose float values
    alone ship (the value of each start, not of the turn's other states)."""

    def start_values_key(self) -> str | None:
        """The family's table name, with the model's version (``None``: none)."""

    def start_value_models(self) -> Sequence[TurnModel[Any]]:
        """The models whose starts the table holds (for its build)."""

    def start_values_draws(self) -> int:
        """How far into the turn the table reaches: the positions within this many draws less
        one are answered from it (:func:`.turn_tables.opening_states`)."""

    def start_value_families(self) -> Sequence[TurnModel[Any]]:
        """One model of each family of starts the game ships values for (for the build)."""

    def start_values_check(self) -> tuple[TurnModel[Any], Any] | None:
        """A position of the same family that solves in a moment: its value ships beside the
        starts and is solved again, bit for bit, when the table is loaded."""


def estimated_states(model: TurnModel[Any], state: Any) -> int | None:
    """The model's estimate of the states a solve from ``state`` visits, or ``None``."""
    offer = getattr(model, "estimated_states", None)
    return None if offer is None else offer(state)


def offered_level_graph(model: TurnModel[Any]) -> Any:
    """The model's level graph, or ``None`` (use :func:`.levels.level_graph`, which also
    answers ``None`` where NumPy is missing)."""
    offer = getattr(model, "level_graph", None)
    return None if offer is None else offer()


def shared_table_key(model: TurnModel[Any]) -> str | None:
    """The name of the model's shipped whole-turn table, or ``None``."""
    return model.shared_table_key() if isinstance(model, ShipsTurnTable) else None


def shipped_values_model(model: TurnModel[Any]) -> TurnModel[Any]:
    """The model whose start the shipped whole-turn table starts from."""
    return model.shipped_values_model() if isinstance(model, ShipsTurnTable) else model


def start_values_key(model: TurnModel[Any]) -> str | None:
    """The name of the table of the model's family of starts, or ``None``."""
    return model.start_values_key() if isinstance(model, ShipsStartValues) else None


def start_value_models(model: TurnModel[Any]) -> Sequence[TurnModel[Any]]:
    """The models whose starts the family's table holds (none without one)."""
    return model.start_value_models() if isinstance(model, ShipsStartValues) else ()


def start_values_draws(model: TurnModel[Any]) -> int:
    """How many draws into the turn the family's table reaches (1: the start only)."""
    return model.start_values_draws() if isinstance(model, ShipsStartValues) else 1


def start_value_families(model: TurnModel[Any]) -> Sequence[TurnModel[Any]]:
    """One model of each family of starts the game ships values for (none without one)."""
    return model.start_value_families() if isinstance(model, ShipsStartValues) else ()


def start_values_check(model: TurnModel[Any]) -> tuple[TurnModel[Any], Any] | None:
    """The family's check position, solved again when its table is loaded, or ``None``."""
    return model.start_values_check() if isinstance(model, ShipsStartValues) else None
