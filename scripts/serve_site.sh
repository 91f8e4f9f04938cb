#!/usr/bin/env bash
# Serve the static site built by scripts/build_site.sh on 127.0.0.1.
#
#   scripts/serve_site.sh [--port N] [--dir DIR]      (default port 8000, or $PUSHLUCK_SITE_PORT)
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PUSHLUCK_SITE_PORT:-8000}"
DIR=site
while [ $# -gt 0 ]; do
  case "$1" in
    --port) PORT="$2"; shift 2 ;;
    --port=*) PORT="${1#*=}"; shift ;;
    --dir) DIR="$2"; shift 2 ;;
    --dir=*) DIR="${1#*=}"; shift ;;
    -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
    *) echo "serve_site.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -f "$DIR/index.html" ] || { echo "serve_site.sh: no site in $DIR/ (run scripts/build_site.sh)" >&2; exit 2; }
echo "pushluck_teach site: open http://127.0.0.1:${PORT}/voici/render/00_Start_Here.html"
exec "${PYTHON:-python3}" -m http.server "$PORT" --bind 127.0.0.1 --directory "$DIR"
