#!/usr/bin/env bash
# Builds everything: the native CLI and tests, the wasm module and its tests, and the page.
# Usage: scripts/build.sh            (set-up is run first; idempotent)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

bash scripts/setup.sh
source scripts/env.sh

jobs="$(nproc 2>/dev/null || echo 2)"

cmake --preset native >/dev/null
cmake --build --preset native -j "$jobs"

# A malformed quiz bank stops the build with the engine's item- and field-named errors.
if ! bank_report="$(build/native/trainscope quiz-check web/quiz/bank.json 20)"; then
  echo "build: web/quiz/bank.json has problems:" >&2
  echo "$bank_report" >&2
  exit 1
fi

# Debian's emscripten runs its JS tools with the project's node (EM_NODE_JS, from env.sh), which
# must find Debian's JS modules; the wasm tests run under that same node.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
cmake --preset wasm -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
cmake --build --preset wasm -j "$jobs"

if [ -f package.json ]; then
  npm run --silent build
fi
