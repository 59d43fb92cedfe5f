#!/usr/bin/env bash
# Fuzzes the engine's text API (fuzz/fuzz_text_api.cpp) with libFuzzer under ASan and UBSan.
# Usage: scripts/fuzz.sh [seconds]   (default 60). Exits non-zero when libFuzzer finds a crash,
# a hang, a leak or a sanitizer report; the input is saved in build/fuzz/ as crash-*/timeout-*.
# Every such input becomes a regression test in tests/engine.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
case "$seconds" in ''|*[!0-9]*) echo "fuzz: seconds must be a whole number, not '$seconds'" >&2; exit 64 ;; esac

build_dir="$repo_root/build/fuzz"
mkdir -p "$build_dir/objects" "$build_dir/corpus"
cxx="${CLANGXX:-clang++}"
flags=(-std=c++17 -g -O1 -I"$repo_root/src" -fsanitize=fuzzer,address,undefined -fsanitize=float-cast-overflow
       -fno-sanitize-recover=all -fno-omit-frame-pointer)

# Rebuild only what changed: one object per engine file, then link.
objects=()
newest_header="$(ls -t "$repo_root"/src/engine/*/*.hpp | head -1)"
for source in "$repo_root"/src/engine/*/*.cpp "$repo_root"/third_party/musl/*.cpp "$repo_root"/fuzz/fuzz_text_api.cpp; do
  relative="${source#"$repo_root"/}"
  object="$build_dir/objects/${relative//\//_}"
  object="${object%.cpp}.o"
  objects+=("$object")
  if [ ! -f "$object" ] || [ "$source" -nt "$object" ] || [ "$newest_header" -nt "$object" ]; then
    "$cxx" "${flags[@]}" -c "$source" -o "$object"
  fi
done
"$cxx" "${flags[@]}" "${objects[@]}" -o "$build_dir/fuzz_text_api"

# New inputs go to build/fuzz/corpus; the committed seeds in fuzz/corpus are only read.
log="$build_dir/last-run.log"
status=0
"$build_dir/fuzz_text_api" "$build_dir/corpus" "$repo_root/fuzz/corpus" \
  -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$build_dir/" 2>"$log" || status=$?
executions="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)"
if [ "$status" -ne 0 ]; then
  tail -60 "$log" >&2
  echo "fuzz: FAILED after ${executions:-?} executions (exit $status); see $log" >&2
  exit 1
fi
echo "fuzz: ${executions:-?} executions in ${seconds} s, no crash, hang or sanitizer report"
