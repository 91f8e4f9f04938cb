#!/usr/bin/env bash
# Run the whole test suite from a fresh clone: creates .venv, installs the package with its test
# extra, then runs ruff, the import-layers contract (lint-imports) and pytest (unit, property,
# simulation, notebook and browser tests).
# Extra arguments go to pytest, e.g.  scripts/test.sh -m "not slow and not browser"  for a quick run;
# PUSHLUCK_SOAK=1 scripts/test.sh -m soak  runs the soak tests alone (docs/testing.md).
# pytest runs on two worker processes (pytest-xdist, one test file per worker at a time, so a
# file's app server and browser are shared by its tests); PUSHLUCK_TEST_WORKERS=N changes the
# count, and -n N or -p no:xdist among the arguments takes precedence.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.pushluck-test-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[test]'
    touch "$stamp"
fi
echo "== ruff"
.venv/bin/ruff check .
echo "== import layers"
.venv/bin/lint-imports
echo "== pytest"
workers=(-n "${PUSHLUCK_TEST_WORKERS:-2}" --dist loadfile)
for arg in "$@"; do
    case "$arg" in -n|-n*|--numprocesses*|no:xdist) workers=() ;; esac
done
.venv/bin/python -m pytest "${workers[@]}" "$@"
