#!/usr/bin/env bash
# Runs every test: set-up, both builds, engine tests natively and in wasm, CLI tests,
# a short fuzzing run, web unit tests and browser tests. Usage: scripts/test.sh
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

bash scripts/build.sh
source scripts/env.sh

echo "== C++ layout (clang-format, .clang-format)"
bash scripts/format-check.sh

echo "== engine and CLI tests (native)"
ctest --preset native

echo "== engine tests (wasm under node)"
ctest --preset wasm

echo "== fuzzing the engine's text API (30 s; scripts/fuzz.sh SECONDS for longer)"
bash scripts/fuzz.sh 30

if [ -f package.json ]; then
  echo "== lint: eslint and prettier over web/src, web/ship, tests/web"
  npm run --silent lint
  echo "== web unit tests"
  npm test --silent
  echo "== browser tests"
  npm run --silent test:browser
fi
