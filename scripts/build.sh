#!/usr/bin/env bash
# Builds everything: the native CLI and tests, the wasm module and its tests, and the page.
# Usage: scripts/build.sh            (set-up is run first; idempotent)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

bash scripts/setup.sh

jobs="$(nproc 2>/dev/null || echo 2)"

cmake --preset native >/dev/null
cmake --build --preset native -j "$jobs"

# Debian's emscripten runs its JS tools with this machine's node, which must find Debian's modules.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j "$jobs"

if [ -f package.json ]; then
  npm run --silent build
fi
