#!/usr/bin/env bash
# Checks that the project's own C++ is laid out as .clang-format says (vendored code under
# third_party/ is left as its authors wrote it). Changes nothing; lists the files that differ.
# Usage: scripts/format-check.sh   (scripts/test.sh runs it)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

clang_format="$(command -v clang-format || command -v clang-format-14 || true)"
if [ -z "$clang_format" ]; then
  echo "format-check: clang-format is missing (bash scripts/setup.sh installs Debian's)" >&2
  exit 2
fi

mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.hpp' 'tests/*.cpp' 'tests/*.hpp' 'tests/*.inc' 'fuzz/*.cpp' 'bench/*.cpp')
differing=()
for file in "${files[@]}"; do
  if ! "$clang_format" --style=file --dry-run --Werror "$file" >/dev/null 2>&1; then differing+=("$file"); fi
done

if [ ${#differing[@]} -gt 0 ]; then
  echo "format-check: ${#differing[@]} of ${#files[@]} C++ files differ from .clang-format (clang-format -i FILE fixes one):" >&2
  printf '  %s\n' "${differing[@]}" >&2
  exit 1
fi
echo "format-check: ${#files[@]} C++ files follow .clang-format"
