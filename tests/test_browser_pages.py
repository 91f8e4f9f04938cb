"""Every page at 1280x720 in a real browser, opened once for every check: its layout in normal
and in projector mode, its fit on a projected screen, a lesson's answers and numbers, and then,
after a student's walk of the page, axe-core's accessibility check in both modes.

One app (``scripts/run_app.sh``, the worker's shared server) serves every notebook page.  Each
page is opened with ``?projector`` in its address (the mode a teacher links to), then:

1. the page rendered to its end, its charts drawn, nothing clicked: the layout checks of
   :func:`page_checks.check_layout` in projector mode (cut text, probability axes, chart
   titles, solver words, errors; type size and key content in the first screen); on a lesson,
   no check-yourself answer anywhere on the page yet (:mod:`lesson_checks`);
2. the "Projector mode" switch clicked off: the same layout checks in normal mode, still
   nothing else clicked; then on again;
3. in projector mode: the page's key numbers after its clicks inside the first screen
   (:func:`page_checks.check_projector_fit`);
4. the page walked as a student would: Lost Cities' turn played, the lab's tabs opened
   (``axe_core.walk``); in normal mode, a draw/stop Play page played through with its numbers
   checked after every action (``test_browser.play_and_check_numbers``: the opening against
   hand counts and the tests' own solvers, every position against ``pushluck odds``), and a
   lesson's questions each answered wrong, its answer shown and every accepted form marked
   right, then its numbers compared with independent sources
   (:func:`lesson_checks.review_lesson`, :func:`lesson_checks.check_lesson_numbers`);
5. axe-core (pinned, from npm: ``tests/axe_core.py``) in both modes: it fails on any serious
   or critical violation, any ``region`` or ``heading-order`` finding, and any chart without a
   labelled number table.  Each page's findings are written to ``test-artifacts/axe/``; a page
   or console error anywhere in the visit fails too.

The static site's pages get the axe check in ``tests/test_site.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_core import audit, judge, walk
from lesson_checks import (
    Question,
    check_lesson_numbers,
    check_no_answer_shown,
    lesson_questions,
    review_lesson,
)
from page_checks import (
    HEIGHT,
    PAGES,
    PLAY_PAGES,
    WIDTH,
    check_layout,
    check_projector_fit,
    open_rendered,
    switch_projector,
)
from page_checks import KEYS as PROJECTOR_KEYS
from test_browser import AppServer, play_and_check_numbers

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(shared_app: AppServer) -> AppServer:
    """The worker's app server (tests/conftest.py), shared with the other browser files."""
    return shared_app


@pytest.fixture(scope="module")
def questions() -> dict[str, tuple[Question, ...]]:
    """Every lesson's check-yourself questions and answers, from the independent sources."""
    found = lesson_questions()
    lessons = [page for page in PAGES if page.startswith("Lesson_")]
    assert sorted(found) == lessons, "every lesson page has its questions in lesson_checks.py"
    return found


def test_every_page_is_listed_with_its_key_numbers():
    """The pages come from the notebooks directory: an empty glob, a missing page or a page
    without its projector key numbers fails here rather than checking nothing."""
    assert {"00_Start_Here.ipynb", "Teachers_Guide.ipynb", "Play_Pig.ipynb",
            "Play_Lost_Cities.ipynb", "Variant_Lab.ipynb",
            } <= set(PAGES), PAGES
    assert sum(page.startswith("Lesson_") for page in PAGES) == 8, PAGES
    assert "Play_Pig.ipynb" in PLAY_PAGES and "Play_Lost_Cities.ipynb" not in PLAY_PAGES
    assert set(PROJECTOR_KEYS) == set(PAGES), set(PROJECTOR_KEYS) ^ set(PAGES)


@pytest.mark.parametrize("notebook", PAGES)
def test_page_layout_projector_fit_and_accessibility(app, browser, questions, notebook):
    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    where = f"{notebook} (projector mode)"
    try:
        watch = open_rendered(page, app, notebook, projector=True)
        check_layout(page, watch, where, projector=True)
        if notebook.startswith("Lesson_"):
            check_no_answer_shown(page, notebook, questions[notebook])
        switch_projector(page, on=False)
        where = f"{notebook} (normal mode)"
        check_layout(page, watch, where, projector=False)
        switch_projector(page, on=True)
        where = f"{notebook} (projector mode)"
        check_projector_fit(page, watch, notebook)
        if notebook.startswith("Lesson_") or notebook in PLAY_PAGES:
            switch_projector(page, on=False)  # played or answered as a student would
            where = f"{notebook} (normal mode)"
            if notebook in PLAY_PAGES:
                play_and_check_numbers(page, notebook)
            else:
                review_lesson(page, notebook, questions[notebook])
                check_lesson_numbers(page, notebook, watch.requests)
            found = {"normal": audit(page)}
            switch_projector(page, on=True)
            found["projector"] = audit(page)
        else:
            walk(page, notebook)
            found = {"projector": audit(page)}
            switch_projector(page, on=False)
            found["normal"] = audit(page)
    finally:
        page.close()
    assert watch.page_errors == [], f"{where}, walked: page errors {watch.page_errors[:3]}"
    assert watch.console_errors == [], (
        f"{where}, walked: console errors {watch.console_errors[:3]}")
    for mode, (violations, charts) in found.items():
        judge(f"voila-{Path(notebook).stem}-{mode}", f"{notebook} ({mode} mode)", violations,
              charts)
