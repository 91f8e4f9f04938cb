"""The package's plotly bundle (``pushluck_teach/ui/static/plotly-pushluck.min.js``): the trace
modules it registers (read from its code, and as its first line lists them) cover every trace
type the package's modules and notebooks construct (``go.Bar(`` and the like, found by a text
scan), its plotly.js (the code's version string, as the banner states it) is of the
installed plotly's major version, and (slow, needs npm) ``scripts/build_plotly_bundle.sh``
rebuilds it byte for byte.

Nothing here draws a chart: whether the pages draw with the bundle is for the browser tests."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import plotly.graph_objects as go
import pytest
from plotly.offline import get_plotlyjs_version

from pushluck_teach.ui.figures import PLOTLY_BUNDLE_FILE

ROOT = Path(__file__).resolve().parents[1]
BANNER = re.compile(r"^/\* pushluck_teach plotly bundle: plotly\.js (\d+)\.(\d+)\.(\d+) .*?"
                    r"traces: ([a-z0-9 ]+);")


def bundle_banner() -> tuple[tuple[int, int, int], set[str]]:
    """The bundle's plotly.js version and trace types, as its first line states them."""
    with PLOTLY_BUNDLE_FILE.open(encoding="utf-8") as handle:
        match = BANNER.match(handle.readline())
    assert match, f"{PLOTLY_BUNDLE_FILE} does not start with the build script's banner"
    major, minor, patch, traces = match.groups()
    return (int(major), int(minor), int(patch)), set(traces.split())


def trace_types_drawn() -> dict[str, list[str]]:
    """Every plotly trace type the package's modules and the notebooks construct
    (``go.<Trace>(``), with the files that do."""
    drawn: dict[str, list[str]] = {}
    files = [*sorted((ROOT / "pushluck_teach").rglob("*.py")),
             *sorted((ROOT / "notebooks").glob("*.ipynb"))]
    for path in files:
        for name in set(re.findall(r"\bgo\.([A-Z][A-Za-z0-9]*)\(", path.read_text("utf-8"))):
            trace_type = getattr(getattr(go, name)(), "type", None)
            if isinstance(trace_type, str):  # a trace, not a Figure, Layout, ...
                drawn.setdefault(trace_type, []).append(str(path.relative_to(ROOT)))
    return drawn


def test_the_scan_finds_the_package_s_charts() -> None:
    drawn = trace_types_drawn()
    assert {"bar", "scatter", "heatmap", "indicator", "surface"} <= drawn.keys()
    assert "pushluck_teach/ui/figures.py" in drawn["bar"]


def registered_trace_modules() -> set[str]:
    """The trace modules the bundle's code registers (plotly.js: ``moduleType:"trace",
    name:"bar"``), read from the code rather than from the banner."""
    text = PLOTLY_BUNDLE_FILE.read_text(encoding="utf-8")
    return set(re.findall(r'moduleType:"trace",name:"([a-z0-9]+)"', text))


def test_the_banner_lists_the_trace_modules_the_code_registers() -> None:
    _, traces = bundle_banner()
    assert traces == registered_trace_modules()


def test_bundle_holds_every_trace_type_drawn() -> None:
    traces = registered_trace_modules()
    missing = {kind: files for kind, files in trace_types_drawn().items() if kind not in traces}
    assert not missing, (f"trace types drawn but not in the plotly bundle: {missing}; add them "
                         "to js/plotly-bundle/entry.js and run scripts/build_plotly_bundle.sh")


def test_bundle_is_the_installed_plotly_s_major_version() -> None:
    version, _ = bundle_banner()
    # the code's own version string (plotly.js sets ``version="x.y.z"``) is the banner's
    code = re.findall(r'\.version="(\d+)\.(\d+)\.(\d+)"',
                      PLOTLY_BUNDLE_FILE.read_text(encoding="utf-8"))
    assert {tuple(int(part) for part in found) for found in code} == {version}
    major = version[0]
    installed = get_plotlyjs_version()
    assert major == int(installed.split(".")[0]), (
        f"the bundle has plotly.js {major}.x, the installed plotly uses {installed}: pin that "
        "plotly.js in js/plotly-bundle/package.json and run scripts/build_plotly_bundle.sh")


def test_bundle_is_an_es_module_exporting_plotly() -> None:
    text = PLOTLY_BUNDLE_FILE.read_text(encoding="utf-8")
    assert re.search(r"export\s*\{\s*\w+ as default\s*\}", text)
    assert "globalThis.Plotly=" in text


@pytest.mark.slow
def test_build_script_rebuilds_the_committed_bundle(tmp_path: Path) -> None:
    """The committed file is what the build script makes from the pinned packages (npm ci
    fetches them from the npm registry: about 30 s)."""
    rebuilt = tmp_path / "bundle.js"
    subprocess.run(["bash", str(ROOT / "scripts" / "build_plotly_bundle.sh"),
                    "--output", str(rebuilt)], check=True, cwd=ROOT, timeout=600)
    assert rebuilt.read_bytes() == PLOTLY_BUNDLE_FILE.read_bytes()


def test_every_figure_of_a_kernel_shares_one_copy_of_the_bundle(monkeypatch) -> None:
    """Without the server's URL a figure carries the bundle's source: one 1.8 MB string for
    the whole kernel, not one per figure (a Play table held about 4 MB more per table)."""
    from pushluck_teach.ui.figures import BUNDLE_URL_ENV, LiveFigureWidget

    monkeypatch.delenv(BUNDLE_URL_ENV, raising=False)
    figures = [LiveFigureWidget() for _ in range(3)]
    try:
        sources = [figure._plotly_esm for figure in figures]
        assert sources[0] == PLOTLY_BUNDLE_FILE.read_text(encoding="utf-8")
        assert all(source is sources[0] for source in sources)
    finally:
        for figure in figures:
            figure.close()
