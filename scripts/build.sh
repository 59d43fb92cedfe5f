#!/usr/bin/env bash
# Builds everything: the native CLI and tests, the wasm module and its tests, and the page.
# Usage: scripts/build.sh [--bank FILE] [--lang LANG]   (set-up is run first; idempotent)
#   --bank FILE  an author's question bank (docs/quiz.md) in the page, the offline file and the
#                SCORM package instead of web/quiz/bank.json; checked by quiz-check first.
#   --lang LANG  the language (en, de, es) the offline file and the LMS packages open in
#                (docs/i18n.md); English by default. ?lang= still chooses another.
set -euo pipefail
author_bank=""
default_language=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bank) [ $# -ge 2 ] || { echo "build: --bank needs a file" >&2; exit 64; }; author_bank="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --bank=*) author_bank="$(cd "$(dirname "${1#--bank=}")" && pwd)/$(basename "${1#--bank=}")"; shift ;;
    --lang) [ $# -ge 2 ] || { echo "build: --lang needs a language (en, de or es)" >&2; exit 64; }; default_language="$2"; shift 2 ;;
    --lang=*) default_language="${1#--lang=}"; shift ;;
    *) echo "build: unknown option $1 (usage: scripts/build.sh [--bank FILE] [--lang LANG])" >&2; exit 64 ;;
  esac
done
# Checked before the long build, so a typo costs nothing.
case "$default_language" in
  ""|en|de|es) ;;
  *) echo "build: --lang must be en, de or es (not \"$default_language\")" >&2; exit 64 ;;
esac
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
# The author's bank is held to the same check: every problem named by item and field.
if [ -n "$author_bank" ] && ! bank_report="$(build/native/trainscope quiz-check "$author_bank" 20)"; then
  echo "build: $author_bank has problems:" >&2
  echo "$bank_report" >&2
  exit 1
fi

# Debian's emscripten runs its JS tools with the project's node (EM_NODE_JS, from env.sh), which
# must find Debian's JS modules; the wasm tests run under that same node.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
cmake --preset wasm -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
cmake --build --preset wasm -j "$jobs"

if [ -f package.json ]; then
  node web/build.mjs ${author_bank:+--bank "$author_bank"} ${default_language:+--lang "$default_language"}
fi
