#!/usr/bin/env bash
# Prints the engine's speed natively and in wasm under node, and the size of the wasm module.
# Usage: scripts/bench.sh   (builds first)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
bash scripts/build.sh >/dev/null
source scripts/env.sh

echo "== native"
build/native/engine_bench
echo "== wasm (node $(node --version))"
node build/wasm/engine_bench.js

echo "== sizes (bytes, gzip -9 bytes)"
for file in build/wasm/trainscope_engine.wasm build/wasm/trainscope_engine.js; do
  printf '%-40s %9d %9d\n' "$file" "$(stat -c %s "$file")" "$(gzip -9c "$file" | wc -c)"
done
if [ -d dist ]; then
  find dist -type f \( -name '*.html' -o -name '*.js' -o -name '*.css' -o -name '*.zip' \) | sort | while read -r file; do
    printf '%-40s %9d %9d\n' "$file" "$(stat -c %s "$file")" "$(gzip -9c "$file" | wc -c)"
  done
fi
if [ -f bench/page_bench.mjs ]; then
  echo "== page (headless Chromium)"
  node bench/page_bench.mjs
fi
