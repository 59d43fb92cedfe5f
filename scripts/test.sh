#!/usr/bin/env bash
# Runs every test: set-up, both builds, engine tests natively and in wasm, CLI tests,
# web unit tests and browser tests. Usage: scripts/test.sh
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

bash scripts/build.sh
source scripts/env.sh

echo "== engine and CLI tests (native)"
ctest --preset native

echo "== engine tests (wasm under node)"
ctest --preset wasm

if [ -f package.json ]; then
  echo "== web unit tests"
  npm test --silent
  echo "== browser tests"
  npm run --silent test:browser
fi
