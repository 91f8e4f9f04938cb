"""The classroom widgets: a playable table for every game and the live exact analysis panel.

``play("pig")`` returns a :class:`GameTable`; see :mod:`pushluck_teach.ui.table` for its
traitlets and :mod:`pushluck_teach.ui.analysis` for the charts.
"""

from pushluck_teach.ui.analysis import AnalysisPanel, analyse_position
from pushluck_teach.ui.table import GameTable, play

__all__ = ["AnalysisPanel", "GameTable", "analyse_position", "play"]
