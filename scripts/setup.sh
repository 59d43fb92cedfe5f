#!/usr/bin/env bash
# Installs what trainscope needs on a Debian 12 machine, only what is missing.
# Idempotent: safe to run before every build.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# clang and libclang-rt-14-dev (libFuzzer, ASan, UBSan runtimes) build scripts/fuzz.sh.
debian_packages=(cmake make g++ catch2 emscripten nodejs npm chromium gzip zip unzip clang libclang-rt-14-dev)

missing_packages=()
for package in "${debian_packages[@]}"; do
  # npm ships inside nodesource's nodejs; count it present when the command exists.
  if [ "$package" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
  if [ "$package" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' \
    || missing_packages+=("$package")
done

if [ ${#missing_packages[@]} -gt 0 ]; then
  echo "setup: installing ${missing_packages[*]}"
  sudo_prefix=""
  [ "$(id -u)" -eq 0 ] || sudo_prefix="sudo"
  $sudo_prefix apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_prefix apt-get install -y -qq --no-install-recommends "${missing_packages[@]}"
fi

# playwright-core needs Node.js 20 or later; Debian 12's own nodejs is 18. This machine kind
# ships Node 20; say so plainly anywhere it does not.
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js $(node --version) is too old: the web tests need Node.js 20 or later" >&2
  exit 1
fi

# Web tooling, pinned by the committed lock file.
if [ -f "$repo_root/package-lock.json" ]; then
  if [ ! -d "$repo_root/node_modules" ] || [ "$repo_root/package-lock.json" -nt "$repo_root/node_modules/.package-lock.json" ]; then
    (cd "$repo_root" && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
