"""axe-core for the browser tests: fetched once from the npm registry (pinned), then cached.

``npm pack axe-core@AXE_VERSION`` (as ``scripts/build_site.sh`` fetches Pyodide) writes the
package's tarball into ``.axe-core/``; its ``axe.min.js`` is what the tests inject into a page.
A missing npm is a failure with one clear line, never a skip.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

AXE_VERSION = "4.14.1"
CACHE = Path(__file__).resolve().parents[1] / ".axe-core"
#: rules whose findings fail a page whatever their impact: content outside landmarks, a
#: heading level skipped (a screen reader's outline of the page)
ALWAYS_FAIL = frozenset({"region", "heading-order"})
FAILING_IMPACTS = frozenset({"serious", "critical"})

#: axe.run on the whole document; each violation as {id, impact, count, targets}
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, count: v.nodes.length,
    targets: v.nodes.slice(0, 6).map((n) => n.target.join(' ') + ' | ' +
      (n.failureSummary || '').split('\\n').slice(1, 2).join(''))}));
}"""


def axe_source() -> str:
    """The text of axe-core's ``axe.min.js`` at :data:`AXE_VERSION` (fetched on first use)."""
    script = CACHE / f"axe-core-{AXE_VERSION}" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm is needed to fetch axe-core for the accessibility test "
                        "(apt-get install npm; .ci/run installs it)", pytrace=False)
        CACHE.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination",
                               str(CACHE)], capture_output=True, text=True, timeout=300)
        tarball = CACHE / f"axe-core-{AXE_VERSION}.tgz"
        if done.returncode != 0 or not tarball.exists():
            pytest.fail(f"npm pack axe-core@{AXE_VERSION} failed: {done.stderr.strip()[-500:]}",
                        pytrace=False)
        with tarfile.open(tarball) as archive:
            member = archive.extractfile("package/axe.min.js")
            assert member is not None, f"{tarball} has no package/axe.min.js"
            script.parent.mkdir(parents=True, exist_ok=True)
            script.write_bytes(member.read())
    return script.read_text(encoding="utf-8")


def run_axe(page) -> list[dict]:
    """Every axe-core violation on ``page`` now (axe is injected if the page has none)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    return page.evaluate(RUN_AXE)


def failing(violations: list[dict]) -> list[dict]:
    """The violations that fail a page: serious or critical, and every finding of
    :data:`ALWAYS_FAIL`."""
    return [v for v in violations if v["impact"] in FAILING_IMPACTS or v["id"] in ALWAYS_FAIL]
