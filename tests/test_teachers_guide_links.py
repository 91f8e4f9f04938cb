"""Every link on the Teachers Guide page opens something: the page is docs/teaching.md as the
notebook renders it, and a Voilà page serves notebooks only (a link to rules.md answered 403,
one to scripts/teaching_answers.py 404).  Checked on the Markdown the notebook shows, with a
link parser that imports nothing of the package."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from pushluck_teach.ui.guide import github_slug, page_markdown

ROOT = Path(__file__).resolve().parent.parent
#: A Markdown link's target (balanced parentheses allowed, as CommonMark does).
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(((?:[^()\s]|\([^()\s]*\))+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)
HTML_LINK = re.compile(r'<a href="([^"]*)"[^>]*>')


def link_targets(markdown: str) -> list[str]:
    """Every link target of the page: Markdown links and HTML ``<a href>``."""
    return LINK.findall(markdown) + [html.unescape(t) for t in HTML_LINK.findall(markdown)]


def heading_ids(markdown: str) -> set[str]:
    """The ids JupyterLab's Markdown renderer gives headings (seen on the page: "Pig — `pig`"
    becomes ``Pig-—-pig``): the text shown, spaces as ``-``; the only targets its in-page
    links scroll to."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.DOTALL)
    return {title.replace("`", "").replace("*", "").strip().replace(" ", "-")
            for title in HEADING.findall(text)}


def _shown() -> str:
    return page_markdown(ROOT / "docs" / "teaching.md", ROOT)


def test_the_notebook_renders_the_guide_through_the_link_rewriter() -> None:
    notebook = json.loads((ROOT / "notebooks" / "Teachers_Guide.ipynb").read_text("utf-8"))
    code = "".join("".join(cell["source"]) for cell in notebook["cells"]
                   if cell["cell_type"] == "code")
    assert "page_markdown(" in code and "docs/teaching.md" in code


def test_every_link_on_the_page_opens_something() -> None:
    shown = _shown()
    anchors = heading_ids(shown)
    targets = link_targets(shown)
    assert targets, "the guide has links"
    for target in targets:
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        if target.startswith("#"):
            assert target[1:] in anchors, target
            assert "," not in target, target  # the page never finds an id with a comma
            continue
        # anything else must be a notebook beside this page (a page of the app)
        assert "/" not in target and target.endswith(".ipynb"), target
        assert (ROOT / "notebooks" / target).is_file(), target


def test_the_rules_link_shows_the_rules_on_the_page_and_scripts_are_named() -> None:
    source = (ROOT / "docs" / "teaching.md").read_text("utf-8")
    shown = _shown()
    if "(rules.md)" in source:
        # the rules document's text is on the page, after the guide, and the link jumps to a
        # heading just above it
        target = re.search(r'<a href="#([^"]+)"[^>]*>rules\.md</a>', shown)
        assert target is not None
        heading = next(m for m in HEADING.finditer(shown)
                       if m[1].replace("`", "").replace(" ", "-") == target[1])
        rules = (ROOT / "docs" / "rules.md").read_text("utf-8")
        assert shown.index(rules.splitlines()[0]) > heading.start() > len(source) * 0.9
    for script in re.findall(r"\]\(\.\./(scripts/[^)]+)\)", source):
        assert f"`{script}`" in shown and f"]({'../' + script})" not in shown


@pytest.mark.parametrize(("title", "slug"), [
    ("Pig — `pig`", "pig--pig"),
    ("Incan Gold (standard deck) — `incan-gold`", "incan-gold-standard-deck--incan-gold"),
    ("Captain Seven's Doubloons — `captain-seven`", "captain-sevens-doubloons--captain-seven"),
    ("The turn objective used for analysis", "the-turn-objective-used-for-analysis"),
])
def test_headings_get_the_anchors_github_gives_them(title: str, slug: str) -> None:
    assert github_slug(title) == slug
