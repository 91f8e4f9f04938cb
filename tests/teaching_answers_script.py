"""``scripts/teaching_answers.py`` (the lessons' answers worked by hand, importing nothing of the
package) as a module the tests compare with: ``from teaching_answers_script import TA``."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "teaching_answers.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("teaching_answers", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TA = _load()
