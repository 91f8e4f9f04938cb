"""The lessons (``notebooks/Lesson_*``): one module per lesson, each a thin widget over the exact
solver (:mod:`pushluck_teach.solve.turn`), the Markov-chain tools
(:mod:`pushluck_teach.solve.markov`) or the whole-game solvers; simulation (Lesson 4) only
illustrates.

Layout of each module: pure data/figure functions first (no widget state), then the lesson's
widget, which holds :class:`plotly.graph_objects.FigureWidget` objects and rewrites them in place
when the student changes something.  Lessons name no game: what they need about a game comes
from its :class:`~pushluck_teach.games.base.GameSpec`, and a lesson's default game and example
positions from its notebook.  Bad input, an impossible position or a bad seed leave a one-line
message, never a traceback.

* Lesson 1 :mod:`.next_card` — :class:`NextCardLesson`
* Lesson 2 :mod:`.when_to_stop` — :class:`WhenToStopLesson`
* Lesson 3 :mod:`.markov_chain` — :class:`MarkovChainLesson`
* Lesson 4 :mod:`.exact_vs_simulation` — :class:`SimulationLesson`
* Lesson 5 :mod:`.rule_variants` — :class:`RuleVariantsLesson`
* Lesson 6 :mod:`.winning_the_game` — :class:`PositionExplorer` and the page's figure functions
* Lesson 7 :mod:`.investing` — :class:`OddsExplorer`, :class:`LuckVersusSkill`, :func:`bet_table`
* :mod:`.answers` (check-yourself questions) and :mod:`.common` (positions, layout, messages)
"""

from pushluck_teach.ui.lessons.answers import CheckAnswer, check_answer, parse_answer
from pushluck_teach.ui.lessons.common import LessonPosition, lesson_position
from pushluck_teach.ui.lessons.exact_vs_simulation import SimulationLesson
from pushluck_teach.ui.lessons.markov_chain import MarkovChainLesson
from pushluck_teach.ui.lessons.next_card import NextCardLesson
from pushluck_teach.ui.lessons.rule_variants import RuleVariantsLesson
from pushluck_teach.ui.lessons.when_to_stop import WhenToStopLesson

__all__ = [
    "CheckAnswer", "LessonPosition", "MarkovChainLesson", "NextCardLesson", "RuleVariantsLesson",
    "SimulationLesson", "WhenToStopLesson", "check_answer", "lesson_position", "parse_answer",
]
