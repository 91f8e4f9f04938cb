#!/usr/bin/env bash
# Remove rfc3987-syntax from an environment: scripts/drop_iri_check.sh [PYTHON]
# jupyter-events pulls it in (jsonschema's IRI format check) and every kernel imports it through
# plotly -> nbformat -> jsonschema: 1.5-4.5 s of CPU and about 16 MB per kernel for a check
# nothing here uses.  jsonschema skips the check when the module is absent.  The app's and the
# tests' set-up (run_app.sh, test.sh) and Binder (binder/postBuild) run this after installing.
set -euo pipefail
PY=${1:-python3}
if "$PY" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('rfc3987_syntax') is None)"; then
  "$PY" -m pip uninstall --quiet --yes rfc3987-syntax >/dev/null 2>&1 || true
fi
