#!/usr/bin/env bash
# Start the classroom app: install what it needs, then serve notebooks/ with Voilà on 127.0.0.1.
#
#   scripts/run_app.sh [--port N] [--pool N] [--no-install] [-- VOILA_OPTION ...]
#
#   --port N      port to listen on (default 8866, or $PUSHLUCK_PORT)
#   --pool N      warm kernels kept ready for the next pages opened, any page (default 2; about
#                 150 MB each; raise it to the number of students who will open a page at the
#                 same moment; 0 starts every kernel on demand)
#   --no-install  do not create .venv or install anything (without .venv: the voila on PATH)
#   -- ...        everything after "--" goes to Voilà as it is (e.g. --WarmKernelPool.fill_delay=5)
#
# Configuration: voila.json (this directory) strips sources, keeps a warm kernel pool
# (pushluck_teach.kernel_pool: warmed one at a time, never hands out a dead kernel), talks to
# kernels over Unix sockets (no TCP port races) and culls idle kernels; the "pushluck"
# template in share/jupyter/ is Voilà's lab template without the CDN stylesheets (the pages
# need no internet) and tells the reader when a page's kernel has stopped.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${PUSHLUCK_PORT:-8866}"
POOL=2
INSTALL=1
while [ $# -gt 0 ]; do
  case "$1" in
    --port) PORT="$2"; shift 2 ;;
    --port=*) PORT="${1#*=}"; shift ;;
    --pool) POOL="$2"; shift 2 ;;
    --pool=*) POOL="${1#*=}"; shift ;;
    --no-install) INSTALL=0; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "run_app.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$PORT" in ''|*[!0-9]*) echo "run_app.sh: --port needs a number, got '$PORT'" >&2; exit 2 ;; esac
case "$POOL" in ''|*[!0-9]*) echo "run_app.sh: --pool needs a whole number, got '$POOL'" >&2; exit 2 ;; esac

if [ "$INSTALL" = 1 ]; then
  if [ ! -x .venv/bin/python ]; then
    "${PYTHON:-python3}" -m venv .venv
  fi
  if ! .venv/bin/python -c "import pushluck_teach, voila" 2>/dev/null \
      || [ pyproject.toml -nt .venv/.pushluck-app-installed ]; then
    .venv/bin/python -m pip install --quiet -e .
    touch .venv/.pushluck-app-installed
  fi
fi

export JUPYTER_PATH="$PWD/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
echo "pushluck_teach: starting Voilà; open http://127.0.0.1:${PORT}/voila/render/00_Start_Here.ipynb"
VOILA=.venv/bin/voila
if [ ! -x "$VOILA" ]; then
  if [ "$INSTALL" = 1 ] || ! VOILA="$(command -v voila)"; then
    echo "run_app.sh: no .venv/bin/voila and no voila on PATH (run without --no-install)" >&2
    exit 2
  fi
fi
exec "$VOILA" notebooks/ --template=pushluck --port="$PORT" --Voila.ip=127.0.0.1 \
  --no-browser --WarmKernelPool.pool_size="$POOL" "$@"
