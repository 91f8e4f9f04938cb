"""Prepare the JupyterLite folder from which ``voici build`` makes the static site.

Called by ``scripts/build_site.sh`` with the build environment's Python (``.venv-site``), which
already holds the pinned voici / JupyterLite / widget packages.  Steps, all into ``--work``:

1. Pyodide's core (the ``pyodide`` npm package, fetched once with ``npm pack``) goes under
   ``lite/static/pyodide/`` with a rewritten ``pyodide-lock.json``: the npm package has no
   wheels, so every lock entry the kernel needs (micropip, IPython and its pure-Python
   dependencies, jedi) is downloaded from PyPI at the locked version and re-hashed; entries
   whose wheels are compiled for Pyodide (NumPy, SciPy, matplotlib, sqlite3, ...) are dropped.
2. ``lite/pypi/`` receives the wheels the pages install with piplite: the app's pure-Python
   dependencies (versions as installed in the build environment), jsonschema 4.17 (pure
   Python) for the rule-file checks, the package's own wheel
   built from the repository, and a metadata-only ``sqlite3`` placeholder (the kernel asks for
   ``sqlite3``; without it IPython simply keeps no command history).
3. ``notebooks/`` receives copies of every notebook with one cell prepended that, when (and
   only when) the notebook runs in Pyodide, installs those wheels and makes an ImportError
   (NumPy/SciPy missing) print one plain line instead of a traceback.

After ``voici build``, ``--pages-link RENDER`` puts the start-page link first in every page
(:func:`add_pages_link`).  Only the wheel downloads and ``npm pack`` use the network (PyPI and
npm registries).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib import metadata
from pathlib import Path

PYODIDE_VERSION = "0.29.0"
#: what the JupyterLite kernel installs at start (see the kernel worker's initKernel)
KERNEL_NEEDS = ["micropip", "packaging", "ipython", "jedi"]
#: the app's own run-time dependencies, at the versions in the build environment
APP_NEEDS = ["plotly", "narwhals", "ipywidgets", "jupyterlab_widgets", "comm", "anywidget",
             "psygnal", "typing_extensions"]
#: pure-Python packages at fixed versions: jsonschema before 4.18 (later ones need the compiled
#: rpds-py), so the site checks rule files against the same schema with the same messages
SITE_PINS = ["jsonschema==4.17.3", "pyrsistent==0.20.0", "attrs==26.1.0"]
#: parts of a wheel the browser never reads, left out of the site's copy (besides the wheel's
#: ``.data/`` folder: files for a Jupyter server's share/, such as plotly's 4.7 MB JupyterLab
#: extension, which the site's build leaves out too)
NOT_IN_BROWSER = {"plotly": ["plotly/labextension/"]}
#: pip's view of "a pure-Python wheel for Pyodide's CPython"
PURE_WHEEL = ["--only-binary=:all:", "--no-deps", "--platform", "any",
              "--python-version", "3.13", "--implementation", "py", "--abi", "none"]

INSTALL_CELL = """\
# Static-site set-up: in the browser (Pyodide) install the app's wheels shipped with the site.
import sys

if sys.platform == "emscripten":
    import piplite

    await piplite.install(["ipywidgets", "plotly", "anywidget", "jsonschema"])
    await piplite.install("pushluck_teach", deps=False)

    from pushluck_teach.pyodide_site import explain_import_errors

    explain_import_errors(get_ipython())
"""


def run(*command: str | Path, cwd: Path | None = None) -> None:
    print("+", " ".join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], check=True, cwd=cwd)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def download(requirements: list[str], dest: Path) -> None:
    """Pure-Python wheels of ``requirements`` (``name==version`` pins) into ``dest``; nothing is
    asked of the package index when every one is already there (the offline rebuild)."""
    dest.mkdir(parents=True, exist_ok=True)
    missing = [pin for pin in requirements if not has_wheel(*pin.split("=="), dest)]
    if not missing:
        return
    run(sys.executable, "-m", "pip", "download", "--quiet", "--dest", dest, *PURE_WHEEL,
        *missing)


def find_wheel(name: str, version: str, folder: Path) -> Path | None:
    stem = name.replace("-", "_").replace(".", "_").lower()
    for wheel in folder.glob("*.whl"):
        wheel_name, wheel_version = wheel.name.split("-")[:2]
        if wheel_name.lower() == stem and wheel_version == version:
            return wheel
    return None


def has_wheel(name: str, version: str, folder: Path) -> bool:
    return find_wheel(name, version, folder) is not None


def wheel_for(name: str, version: str, folder: Path) -> Path:
    wheel = find_wheel(name, version, folder)
    if wheel is None:
        raise SystemExit(f"site_prepare: no wheel for {name}=={version} in {folder}")
    return wheel


def fetch_pyodide(cache: Path) -> Path:
    """The npm package's folder (``npm pack`` once, then reused)."""
    unpacked = cache / f"pyodide-{PYODIDE_VERSION}"
    if not (unpacked / "package" / "pyodide.js").exists():
        cache.mkdir(parents=True, exist_ok=True)
        run("npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}", cwd=cache)
        unpacked.mkdir(exist_ok=True)
        with tarfile.open(cache / f"pyodide-{PYODIDE_VERSION}.tgz") as archive:
            archive.extractall(unpacked, filter="data")
    return unpacked / "package"


def canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def is_pure(entry: dict) -> bool:
    return entry["file_name"].endswith("-none-any.whl") and entry["package_type"] == "package"


def lock_closure(packages: dict[str, dict], roots: list[str]) -> tuple[list[str], list[str]]:
    """(pure-Python entries needed by ``roots``, compiled entries that had to be left out)."""
    pure: list[str] = []
    left_out: list[str] = []

    def visit(name: str) -> None:
        key = canonical(name)
        if key in pure or key in left_out or key not in packages:
            return
        if not is_pure(packages[key]):
            left_out.append(key)
            return
        pure.append(key)
        for dependency in packages[key]["depends"]:
            visit(dependency)

    for root in roots:
        visit(root)
    return pure, left_out


def prepare_pyodide(npm_package: Path, wheels: Path, target: Path) -> list[str]:
    """Copy the core and write a lock naming only wheels that are really there."""
    target.mkdir(parents=True, exist_ok=True)
    for item in npm_package.iterdir():
        if item.suffix in {".map", ".ts"} or item.name in {"package.json", "README.md"}:
            continue
        shutil.copy2(item, target / item.name)
    lock = json.loads((npm_package / "pyodide-lock.json").read_text())
    packages = lock["packages"]
    pure, left_out = lock_closure(packages, KERNEL_NEEDS)
    download([f"{packages[name]['name']}=={packages[name]['version']}" for name in pure], wheels)
    kept: dict[str, dict] = {}
    for name in pure:
        entry = dict(packages[name])
        wheel = wheel_for(entry["name"], entry["version"], wheels)
        shutil.copy2(wheel, target / wheel.name)
        entry["file_name"] = wheel.name
        entry["sha256"] = sha256(wheel)
        kept[name] = entry
    for entry in kept.values():
        entry["depends"] = [dependency for dependency in entry["depends"]
                            if canonical(dependency) in kept]
    lock["packages"] = kept
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))
    return sorted(left_out)


def slim_wheel(source: Path, target: Path, left_out: list[str]) -> None:
    """``source`` copied to ``target`` without the members under the ``left_out`` prefixes
    (and their RECORD lines); a plain copy when there are none."""
    with zipfile.ZipFile(source) as wheel:
        members = wheel.infolist()
        dropped = {m.filename for m in members if m.filename.startswith(tuple(left_out))}
        if not dropped:
            shutil.copy2(source, target)
            return
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as slim:
            for member in members:
                if member.filename in dropped:
                    continue
                data = wheel.read(member)
                if member.filename.endswith(".dist-info/RECORD"):
                    data = "".join(line for line in data.decode().splitlines(keepends=True)
                                   if line.split(",")[0] not in dropped).encode()
                slim.writestr(member, data)


def sqlite3_placeholder(folder: Path) -> Path:
    """A metadata-only wheel: satisfies the kernel's ``sqlite3`` request, installs no module."""
    wheel = folder / "sqlite3-1.0.0-py3-none-any.whl"
    info = "sqlite3-1.0.0.dist-info"
    files = {
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: sqlite3\nVersion: 1.0.0\n"
                            "Summary: placeholder: no sqlite3 in this Pyodide build\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: pushluck_teach\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{name},sha256={digest.decode()},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = "\n".join(record) + "\n"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), text)
    return wheel


def prepare_pypi(repo: Path, wheels: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    pins = [f"{name}=={metadata.version(name)}" for name in APP_NEEDS] + SITE_PINS
    download(pins, wheels)
    for pin in pins:
        name, version = pin.split("==")
        wheel = wheel_for(name, version, wheels)
        left_out = [f"{wheel.name.split('-')[0]}-{version}.data/", *NOT_IN_BROWSER.get(name, [])]
        slim_wheel(wheel, target / wheel.name, left_out)
    shutil.copy2(build_own_wheel(repo, wheels), target)
    sqlite3_placeholder(target)


def build_own_wheel(repo: Path, scratch: Path) -> Path:
    """The package's wheel, built from a clean copy of its sources (:func:`package_sources`)
    in ``scratch``."""
    own = scratch / "own"
    shutil.rmtree(own, ignore_errors=True)
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "--wheel-dir", own, package_sources(repo, scratch / "own-sources"))
    (wheel,) = own.glob("pushluck_teach-*.whl")
    return wheel


def package_sources(repo: Path, staging: Path) -> Path:
    """A clean copy of what the package's wheel is built from (``pyproject.toml``, the README
    and ``pushluck_teach/`` without byte code) in ``staging``: setuptools builds in the source
    folder's ``build/``, which keeps modules a later checkout deleted or moved, and a wheel built
    in the repository would ship them beside their replacements."""
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(repo / name, staging / name)
    shutil.copytree(repo / "pushluck_teach", staging / "pushluck_teach",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return staging


def prepare_notebooks(source: Path, target: Path) -> list[str]:
    """Copies of every notebook with the install cell first, and beside them the repository's
    ``docs/*.md`` (the Teachers Guide page reads ``docs/teaching.md`` and the documents it
    links from the folder the page runs in, as in Voilà)."""
    target.mkdir(parents=True, exist_ok=True)
    docs = target / "docs"
    docs.mkdir(exist_ok=True)
    for document in sorted((source.parent / "docs").glob("*.md")):
        shutil.copy2(document, docs / document.name)
    names = []
    for notebook in sorted(source.glob("*.ipynb")):
        document = json.loads(notebook.read_text())
        cell = {"cell_type": "code", "execution_count": None, "id": "pushluck-site-install",
                "metadata": {"tags": ["site-install"]}, "outputs": [],
                "source": INSTALL_CELL.splitlines(keepends=True)}
        document["cells"].insert(0, cell)
        (target / notebook.name).write_text(json.dumps(document, indent=1))
        names.append(notebook.name)
    return names


#: Every page's first link: the start page, off-screen until the first Tab gives it the focus
#: (the Voilà app's page template, ``share/jupyter/voila/templates/pushluck``, has the same)
PAGES_LINK = ('<nav class="pushluck-pages" aria-label="Pages"><a href="00_Start_Here.html">'
              "All pages: the start page</a></nav>")
PAGES_LINK_STYLE = (
    "<style>.pushluck-pages a { position: absolute; left: -10000px; top: 0; }\n"
    ".pushluck-pages a:focus { position: fixed; left: 8px; top: 8px; z-index: 10001;"
    " padding: 0.4em 1em; background: #fff; color: #0b57a4; font: 1.1rem/1.4 sans-serif;"
    " outline: 3px solid #1a1a1a; }</style>")


def add_pages_link(render: Path) -> int:
    """Put :data:`PAGES_LINK` first in every page ``voici build`` wrote to ``render``; the
    number of pages."""
    pages = sorted(render.glob("*.html"))
    for page in pages:
        html = page.read_text(encoding="utf-8")
        if "pushluck-pages" in html:
            continue
        html = html.replace("</head>", PAGES_LINK_STYLE + "</head>", 1)
        html = re.sub(r"(<body[^>]*>)", lambda found: found.group(1) + PAGES_LINK, html,
                      count=1)
        page.write_text(html, encoding="utf-8")
    return len(pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path)
    parser.add_argument("--work", type=Path, help="build scratch folder")
    parser.add_argument("--pages-link", type=Path, metavar="RENDER",
                        help="after the build: the start-page link first in every page here")
    args = parser.parse_args()
    if args.pages_link is not None:
        print(f"site_prepare: the start-page link in {add_pages_link(args.pages_link)} pages")
        return
    if args.repo is None or args.work is None:
        parser.error("--repo and --work are needed to prepare a build")
    work = args.work.resolve()
    lite = work / "lite"
    shutil.rmtree(lite, ignore_errors=True)
    shutil.rmtree(work / "notebooks", ignore_errors=True)
    lite.mkdir(parents=True)
    dropped = prepare_pyodide(fetch_pyodide(work / "npm"), work / "wheels",
                              lite / "static" / "pyodide")
    prepare_pypi(args.repo.resolve(), work / "wheels", lite / "pypi")
    settings = {"disablePyPIFallback": True}
    (lite / "jupyter-lite.json").write_text(json.dumps({
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": settings},
        },
    }, indent=1))
    names = prepare_notebooks(args.repo.resolve() / "notebooks", work / "notebooks")
    print(f"site_prepare: {len(names)} notebooks; lock entries without a Pyodide-free wheel "
          f"(dropped): {', '.join(dropped) or 'none'}")


if __name__ == "__main__":
    main()
