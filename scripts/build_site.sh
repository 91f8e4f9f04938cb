#!/usr/bin/env bash
# Build the app as a static site (voici + JupyterLite + Pyodide) into site/.
#
#   scripts/build_site.sh [--output DIR]
#
# Everything runs in the browser: the folder can be served by any static web server
# (scripts/serve_site.sh, GitHub Pages, a school server). The build needs Python >= 3.11 with
# venv, and node/npm (only `npm pack pyodide@0.29.0`). Network is used only to install the pinned
# packages below from PyPI into .venv-site and to fetch wheels/Pyodide from the PyPI and npm
# registries; both are cached (.venv-site/, .site-build/), so a rebuild needs no network and
# gives the same files.
set -euo pipefail
cd "$(dirname "$0")/.."

OUTPUT=site
while [ $# -gt 0 ]; do
  case "$1" in
    --output) OUTPUT="$2"; shift 2 ;;
    --output=*) OUTPUT="${1#*=}"; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "build_site.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

case "$OUTPUT" in /*) ;; *) OUTPUT="$PWD/$OUTPUT" ;; esac
if [ -e "$OUTPUT" ] && [ -n "$(ls -A "$OUTPUT")" ] && [ ! -f "$OUTPUT/jupyter-lite.json" ]; then
  echo "build_site.sh: $OUTPUT exists and is not a built site; not replacing it" >&2; exit 2
fi

PINS=(voici-core==0.10.0 jupyterlite-core==0.7.0 jupyterlite-pyodide-kernel==0.7.0
      ipywidgets==8.1.9 plotly==7.1.0 anywidget==0.11.0 setuptools wheel)
VENV=.venv-site
WORK=.site-build

command -v npm >/dev/null 2>&1 || { echo "build_site.sh: npm is needed (apt-get install npm)" >&2; exit 2; }
if [ ! -x "$VENV/bin/python" ]; then
  "${PYTHON:-python3}" -m venv "$VENV"
fi
if [ ! -f "$VENV/.pins" ] || [ "$(cat "$VENV/.pins")" != "${PINS[*]}" ]; then
  "$VENV/bin/python" -m pip install --quiet "${PINS[@]}"
  echo "${PINS[*]}" > "$VENV/.pins"
fi

# One timestamp inside the package's wheel, so that a rebuild of the same sources gives the same
# wheel, byte for byte (the site then differs only in the dates its listings show).  Not exported to
# `voici build`: with it set, JupyterLite re-dates every file in the output's parent folder.
EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 315532800)}"
SOURCE_DATE_EPOCH="$EPOCH" "$VENV/bin/python" scripts/site_prepare.py --repo . --work "$WORK"

# plotly's JupyterLab mime extension (4.7 MB) renders plotly outputs the app never makes (its
# charts are FigureWidgets, whose bundle comes with the widget), as voila.json's denylist says
# for the Voilà app: keep it out of the site, so no page loads it.
rm -rf "$VENV/share/jupyter/labextensions/jupyterlab-plotly"
# Build from clean: a stale .jupyterlite.doit.db silently skips the Pyodide copy.
rm -rf "$OUTPUT" "$WORK/lite/.jupyterlite.doit.db" "$WORK/lite/_output"
(cd "$WORK/lite" && env -u SOURCE_DATE_EPOCH "../../$VENV/bin/voici" build --contents ../notebooks \
    --output-dir "$OUTPUT" --no-sourcemaps)
# The voici page template links Font Awesome from a CDN; the app uses no icons (as the Voilà
# app's "pushluck" template), so drop those links and the pages make no request off the site.
find "$OUTPUT/voici" -name '*.html' -exec sed -i '/cdn\.jsdelivr\.net\/npm\/@fortawesome/d' {} +
# Every page's first link leads to the start page (the first Tab shows it), as in the Voilà app.
"$VENV/bin/python" scripts/site_prepare.py --pages-link "$OUTPUT/voici/render"
# A page that reads a file (the Teachers Guide reads docs/*.md) makes the in-browser file system
# look one folder above the site's files once, at api/all.json: answer "nothing there" rather
# than 404 (a console error on the page).
[ -f "$OUTPUT/api/all.json" ] || echo '{"content": [], "name": "", "path": "", "type": "directory"}' \
  > "$OUTPUT/api/all.json"
# GitHub Pages: serve the files as they are (no Jekyll pass over 69 MB).
touch "$OUTPUT/.nojekyll"
test -f "$OUTPUT/static/pyodide/pyodide.js" || { echo "build_site.sh: Pyodide was not copied" >&2; exit 1; }
echo "build_site.sh: built $OUTPUT/ ($(du -sh "$OUTPUT" | cut -f1)); serve it with scripts/serve_site.sh"
