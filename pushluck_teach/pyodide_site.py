"""The static site's plain message where a page needs a package its Pyodide lacks.

The site (``scripts/build_site.sh``) ships Pyodide's core without NumPy, SciPy or gmpy2: the
pages need none of them (the whole-game chances read shipped tables in plain Python, the
Markov-chain lesson uses plain-Python floats, rule files are checked by pure-Python
jsonschema).  Should a page's code still import one, the page says so in one line instead of
showing a traceback: the build injects :func:`explain_import_errors` into each page's copy.
"""

from __future__ import annotations

from html import escape
from typing import Any

FULL_DISTRIBUTION = ("the Voilà app (scripts/run_app.sh) or a site built with Pyodide's full "
                     "distribution")


def missing_module(exc: ImportError) -> str:
    """The top-level name of the module an ImportError could not find (e.g. ``numpy``)."""
    return (exc.name or str(exc)).split(".")[0]


def missing_message(exc: ImportError) -> str:
    """One line for the page: what is missing and where the part works."""
    return (f"This part needs {missing_module(exc)}, which this static site's in-browser "
            f"Python does not include; it works in {FULL_DISTRIBUTION}.")


def elsewhere_message(exc: ImportError) -> str:
    """One plain line for a feature the site cannot show here (the win gauge): a missing
    package's name is left out (the page says where it works instead); an ImportError of the
    package's own (a table not shipped with the site) gives its message."""
    if isinstance(exc, ModuleNotFoundError) or not str(exc):
        return "computed in the Voilà app (scripts/run_app.sh) for this game."
    return str(exc)


def explain_import_errors(shell: Any) -> None:
    """Make ``shell`` (IPython) show :func:`missing_message` for an ImportError in a cell, and
    for a NameError in a later cell that used what the failed import would have defined."""
    from IPython.display import HTML, display

    missing: list[ImportError] = []

    def handler(shell: Any, etype: type, value: BaseException, tb: Any,
                tb_offset: int | None = None) -> None:
        if isinstance(value, ImportError):
            missing.append(value)
        elif not missing:  # a NameError of its own: the usual traceback
            shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
            return
        else:
            value = missing[-1]
        display(HTML(f"<div class='pushluck-site-missing'>{escape(missing_message(value))}"
                     "</div>"))

    shell.set_custom_exc((ImportError, NameError), handler)
