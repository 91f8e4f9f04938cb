"""A repository document shown as a page of the app, with links that open something.

A Voilà page serves notebooks (and images), not the repository's other files: a Markdown link to
``rules.md`` or ``../scripts/teaching_answers.py`` answers 403 or 404 there.  :func:`page_markdown`
rewrites every relative link of a document (``docs/teaching.md`` for the Teachers Guide):

* another Markdown document of the repository: its content is added at the end of the page and
  the link jumps to its first heading (its own links are rewritten the same way);
* a notebook: the app's page of that notebook (``Play_Pig.ipynb`` beside this page);
* an in-page ``#anchor`` (the slug GitHub gives a heading): the id the page's Markdown renderer
  gives that heading (its text with spaces as ``-``), written as an HTML link that stays on
  the page (a Markdown link opens a new tab: another copy of the page, with its own kernel);
* any other file (a script, a JSON file): its path as code, to type in the teacher's terminal,
  as the link's text says.

Web links (``http:``, ``https:``, ``mailto:``) are kept.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)\)")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_WEB = ("http://", "https://", "mailto:")


def github_slug(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to ``-``."""
    text = re.sub(r"[`*_]|\[|\]\([^)]*\)", "", title).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def page_heading_id(title: str) -> str:
    """The id the page's Markdown renderer (JupyterLab's) gives a heading: its text as shown
    (code marks, emphasis and link targets dropped) with spaces as ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
    text = re.sub(r"[`*]|(?<!\w)_|_(?!\w)", "", text).strip()
    return text.replace(" ", "-")


def appendix_title(document: str) -> str:
    """The heading above a linked document on the page: plain words (the page's in-page links
    find a heading by its id; one with a comma is never found)."""
    words = re.sub(r"[^A-Za-z0-9]+", " ", posixpath.splitext(posixpath.basename(document))[0])
    return f"Appendix — {words.strip()}"


def headings(text: str) -> list[str]:
    """The heading titles of a Markdown text, in order (fenced code skipped)."""
    found, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := _HEADING.match(line)):
            found.append(match["title"])
    return found


@dataclass
class _Page:
    """The documents on the page (repository-relative path → their text), in order."""

    root: Path
    shown: dict[str, str] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)

    def add(self, document: str) -> str:
        if document not in self.shown:
            self.shown[document] = (self.root / document).read_text(encoding="utf-8")
            self.pending.append(document)
        return self.shown[document]

    def heading_id(self, document: str, slug: str) -> str:
        """The page id of ``document``'s heading whose GitHub slug is ``slug``; without one (or
        for a linked document's own title) the heading this page puts above that document."""
        titles = headings(self.shown[document])
        title = next((t for t in titles if slug and github_slug(t) == slug), None)
        if title is None or (document in self.pending_or_done and title == titles[0]):
            return page_heading_id(appendix_title(document))
        return page_heading_id(title)

    @property
    def pending_or_done(self) -> list[str]:
        """The linked documents (every one but the page's own, the first)."""
        return list(self.shown)[1:]


def _in_page(label: str, heading_id: str) -> str:
    """A link to a heading of the page, as HTML with ``target="_self"``: the page opens a
    Markdown link in a new tab (a new copy of the page, a new kernel) and percent-encodes its
    target (``—`` as ``%E2%80%94``)."""
    return f'<a href="#{html.escape(heading_id, quote=True)}" target="_self">{label}</a>'


def _rewrite(text: str, document: str, page: _Page) -> str:
    """``text`` (the Markdown of ``document``, a repository-relative path) with every relative
    link rewritten (module docstring)."""
    folder = posixpath.dirname(document)
    out: list[str] = []
    fenced = False

    def link(match: re.Match[str]) -> str:
        label, target = match["text"], match["target"]
        if target.startswith(_WEB):
            return match[0]
        if target.startswith("#"):
            return _in_page(label, page.heading_id(document, target[1:]))
        path, _, fragment = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(folder, path))
        if resolved.endswith(".ipynb"):
            return f"[{label}]({posixpath.basename(resolved)})"
        if resolved.endswith(".md") and (page.root / resolved).is_file():
            page.add(resolved)
            return _in_page(label, page.heading_id(resolved, fragment))
        plain = label.strip("`")
        return f"`{resolved}`" if plain in (resolved, path, posixpath.basename(resolved)) \
            else f"{label} (`{resolved}`)"

    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        out.append(line if fenced else _LINK.sub(link, line))
    return "\n".join(out)


def page_markdown(document: str | Path, root: str | Path) -> str:
    """The Markdown of ``document`` (a path inside the repository ``root``) for a page of the
    app: links rewritten and linked documents added at the end (module docstring)."""
    root = Path(root)
    relative = Path(document).resolve().relative_to(root.resolve()).as_posix()
    page = _Page(root)
    parts = [_rewrite(page.add(relative), relative, page)]
    page.pending.remove(relative)
    while page.pending:
        linked = page.pending.pop(0)
        parts += ["", "---", "", f"## {appendix_title(linked)}", "",
                  f"*The repository's `{linked}`, shown here.*", "",
                  _rewrite(page.shown[linked], linked, page)]
    return "\n".join(parts) + "\n"


def find_document(name: str, start: str | Path | None = None) -> tuple[Path, Path]:
    """The repository root above ``start`` (default: the working directory) holding ``name``
    (``"docs/teaching.md"``), and the document's path."""
    here = Path.cwd() if start is None else Path(start)
    for folder in (here, *here.parents):
        if (folder / name).is_file():
            return folder, folder / name
    raise FileNotFoundError(f"{name} is not in {here} or a folder above it")


__all__ = ["find_document", "github_slug", "headings", "page_heading_id", "page_markdown"]
