#!/usr/bin/env bash
# Build pushluck_teach/ui/static/plotly-pushluck.min.js: plotly.js with only the trace types the
# package draws (js/plotly-bundle/entry.js), as one ES module that also sets globalThis.Plotly.
#
#   scripts/build_plotly_bundle.sh [--output FILE]
#
# The pages load this file instead of plotly's 5 MB widget bundle (docs/app.md, "The charts'
# plotly.js"): a browser runs it in a quarter of the time.  Needs node/npm; the versions are pinned
# in js/plotly-bundle/package-lock.json, and the same inputs give the same bytes (a slow test,
# tests/test_plotly_bundle.py, rebuilds it and compares).  Rebuild after changing entry.js or the
# pinned plotly.js (keep its major version that of the installed plotly's own plotly.js).
set -euo pipefail
cd "$(dirname "$0")/.."

OUTPUT=pushluck_teach/ui/static/plotly-pushluck.min.js
while [ $# -gt 0 ]; do
  case "$1" in
    --output) OUTPUT="$2"; shift 2 ;;
    --output=*) OUTPUT="${1#*=}"; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "build_plotly_bundle.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$OUTPUT" in /*) ;; *) OUTPUT="$PWD/$OUTPUT" ;; esac
command -v npm >/dev/null 2>&1 || {
  echo "build_plotly_bundle.sh: npm is needed (apt-get install npm)" >&2; exit 2; }

cd js/plotly-bundle
npm ci --silent --no-audit --no-fund
version=$(node -p 'require("plotly.js/package.json").version')
traces=$(grep -o '^import [a-z0-9]* from "plotly.js/lib/[a-z0-9]*"' entry.js \
         | sed 's#.*/lib/\([a-z0-9]*\)"#\1#' | grep -v '^core$' | tr '\n' ' ' | sed 's/ $//')
# esbuild's options follow plotly.js's own build (its esbuild-config.js): `global` is the
# window, no AMD; the only stylesheet plotly.js imports is maplibre's, for map traces not
# registered here, so it is left out.
npx esbuild entry.js --bundle --format=esm --minify --target=es2020 \
  --define:global=window --define:define.amd=false \
  --alias:stream=stream-browserify --alias:regl=@plotly/regl --loader:.css=empty \
  --legal-comments=eof --log-level=warning \
  "--banner:js=/* pushluck_teach plotly bundle: plotly.js $version (MIT License, (c) Plotly, Inc.); traces: $traces; built by scripts/build_plotly_bundle.sh */" \
  --outfile="$OUTPUT"
echo "wrote $OUTPUT ($(wc -c < "$OUTPUT") bytes): plotly.js $version, traces: $traces"
