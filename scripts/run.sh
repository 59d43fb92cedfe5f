#!/usr/bin/env bash
# Builds the widget and serves it on this machine, printing the address to open.
# Usage: scripts/run.sh [PORT]
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
bash scripts/build.sh
source scripts/env.sh
exec npm run --silent serve -- "$@"
