#!/usr/bin/env bash
# Start the classroom app: install what it needs, then serve notebooks/ with Voilà on 127.0.0.1.
#
#   scripts/run_app.sh [--port N] [--pool N] [--no-install]
#
#   --port N      port to listen on (default 8866, or $PUSHLUCK_PORT)
#   --pool N      pre-heated kernels kept ready per notebook (default 1; raise it to the number
#                 of students who will open the same page at the same moment)
#   --no-install  do not create .venv or install anything
#
# Configuration: voila.json (this directory) strips sources, pre-heats a kernel pool and culls
# idle kernels; the "pushluck" template in share/jupyter/ is Voilà's lab template without the
# CDN stylesheets, so the pages need no internet.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${PUSHLUCK_PORT:-8866}"
POOL=1
INSTALL=1
while [ $# -gt 0 ]; do
  case "$1" in
    --port) PORT="$2"; shift 2 ;;
    --port=*) PORT="${1#*=}"; shift ;;
    --pool) POOL="$2"; shift 2 ;;
    --pool=*) POOL="${1#*=}"; shift ;;
    --no-install) INSTALL=0; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "run_app.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [ "$INSTALL" = 1 ]; then
  if [ ! -x .venv/bin/python ]; then
    "${PYTHON:-python3}" -m venv .venv
  fi
  if ! .venv/bin/python -c "import pushluck_teach, voila" 2>/dev/null \
      || [ pyproject.toml -nt .venv/.pushluck-installed ]; then
    .venv/bin/python -m pip install --quiet -e '.[test]'
    touch .venv/.pushluck-installed
  fi
  # jupyter-events pulls in rfc3987-syntax (jsonschema's IRI format check), and every kernel
  # imports it through plotly -> nbformat -> jsonschema: ~1.5 s of CPU per kernel start for a
  # check nothing here uses.  jsonschema skips the check when the module is absent.
  .venv/bin/python -m pip uninstall --quiet --yes rfc3987-syntax >/dev/null 2>&1 || true
fi

export JUPYTER_PATH="$PWD/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
echo "pushluck_teach: starting Voilà; open http://127.0.0.1:${PORT}/voila/render/00_Start_Here.ipynb"
exec .venv/bin/voila notebooks/ --template=pushluck --port="$PORT" --Voila.ip=127.0.0.1 \
  --no-browser --VoilaConfiguration.default_pool_size="$POOL"
