#!/usr/bin/env bash
# Tries the README's two commands as a new user would: a bare Debian 12 root (debootstrap
# --variant=minbase, then only git), a clone of this repository's HEAD, then scripts/test.sh, then
# scripts/run.sh until the address it prints answers. Prints how long each part took.
# Usage (as root; takes the best part of an hour, so it is not part of .ci/run):
#   scripts/fresh-check.sh [--reuse] [ROOT_DIR]   (default /var/tmp/trainscope-fresh, recreated)
# --reuse keeps an earlier run's root (its Debian packages, not its clone): for iterating on the
# later steps, not for the README's timings.
# The log, with a time stamp on every line, is ROOT_DIR.log.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reuse=false
if [ "${1:-}" = --reuse ]; then reuse=true; shift; fi
fresh_root="${1:-/var/tmp/trainscope-fresh}"
log="$fresh_root.log"
suite=bookworm

if [ "$(id -u)" -ne 0 ]; then
  echo "fresh-check: needs root (debootstrap, chroot, mount)" >&2
  exit 1
fi

# The Debian mirror this machine's apt uses (deb822 sources first, then one-line sources).
mirror="$(sed -n 's/^URIs: *\([^ ]*\/debian\)\/\{0,1\}$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)"
if [ -z "$mirror" ]; then
  mirror="$(sed -n 's/^deb  *\(\[[^]]*\]  *\)\{0,1\}\([^ ]*\/debian\)\/\{0,1\}  *.*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n1)"
fi
mirror="${mirror:-http://deb.debian.org/debian}"

if ! command -v debootstrap >/dev/null 2>&1; then
  apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

mounted=()
server_pgid=""
cleanup() {
  if [ -n "$server_pgid" ]; then kill -- "-$server_pgid" 2>/dev/null || true; fi
  local index
  for ((index = ${#mounted[@]} - 1; index >= 0; index--)); do
    umount "${mounted[index]}" 2>/dev/null || umount -l "${mounted[index]}" 2>/dev/null || true
  done
}
trap cleanup EXIT INT TERM

# Refuses to delete a root something is still mounted in.
if grep -q " $fresh_root/" /proc/mounts; then
  echo "fresh-check: something is still mounted under $fresh_root; unmount it first" >&2
  exit 1
fi
if $reuse && [ -f "$fresh_root/etc/debian_version" ]; then
  rm -rf "$fresh_root/root/trainscope"
else
  reuse=false
  rm -rf "$fresh_root"
  mkdir -p "$fresh_root"
fi
: >"$log"

# Appends each line of a command's output to the log with the seconds since the check started.
check_start="$(date +%s)"
stamp() {
  local line
  while IFS= read -r line; do
    printf '%5ds %s\n' "$(($(date +%s) - check_start))" "$line"
  done >>"$log"
}
seconds_since() { echo $(($(date +%s) - $1)); }
in_root() {
  chroot "$fresh_root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
}
report() { echo "fresh-check: $*" | tee >(stamp); }

debootstrap_seconds=0
git_seconds=0
if ! $reuse; then
report "debootstrap --variant=minbase $suite from $mirror into $fresh_root"
phase_start="$(date +%s)"
debootstrap --variant=minbase "$suite" "$fresh_root" "$mirror" 2>&1 | stamp
debootstrap_seconds="$(seconds_since "$phase_start")"

# The machine's own network settings, as any user's machine has them: resolver, hosts, apt's
# mirror and options, the certificate authorities it trusts beyond Debian's (picked up when set-up
# installs ca-certificates), and its npm settings (which may point npm at the system's bundle).
cp /etc/resolv.conf /etc/hosts "$fresh_root/etc/"
rm -f "$fresh_root/etc/apt/sources.list"
cp /etc/apt/sources.list.d/*.sources "$fresh_root/etc/apt/sources.list.d/" 2>/dev/null || true
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$fresh_root/etc/apt/"
grep -lE '^[^/]*Acquire::' /etc/apt/apt.conf.d/* 2>/dev/null | while read -r file; do
  cp "$file" "$fresh_root/etc/apt/apt.conf.d/"
done
if [ -d /usr/local/share/ca-certificates ]; then
  mkdir -p "$fresh_root/usr/local/share/ca-certificates"
  cp -r /usr/local/share/ca-certificates/. "$fresh_root/usr/local/share/ca-certificates/"
fi
# npm reads /etc/npmrc only as Debian's npm; the npm set-up installs into .tools/node reads the
# user's ~/.npmrc, so the machine-wide settings go there too.
if [ -f /etc/npmrc ]; then
  cp /etc/npmrc "$fresh_root/etc/npmrc"
  cp /etc/npmrc "$fresh_root/root/.npmrc"
fi

# Chromium needs /proc, /sys, /dev and a /dev/shm; private mounts so nothing propagates back.
fi

mount -t proc proc "$fresh_root/proc" && mounted+=("$fresh_root/proc")
mount -t sysfs sysfs "$fresh_root/sys" && mounted+=("$fresh_root/sys")
mount --bind /dev "$fresh_root/dev" && mounted+=("$fresh_root/dev")
mount --make-private "$fresh_root/dev"
mount -t tmpfs -o mode=1777 shm "$fresh_root/dev/shm" && mounted+=("$fresh_root/dev/shm")

if ! $reuse; then
  report "installing git"
  phase_start="$(date +%s)"
  in_root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git' 2>&1 | stamp
  git_seconds="$(seconds_since "$phase_start")"
else
  report "reusing $fresh_root and its Debian packages"
fi

# The clone: this repository's committed HEAD, through a bundle, by the root's own git.
git -C "$repo_root" bundle create "$fresh_root/tmp/trainscope.bundle" HEAD 2>&1 | stamp
in_root 'git clone -q /tmp/trainscope.bundle /root/trainscope && git -C /root/trainscope log -1 --format="clone: %h %s"' 2>&1 | stamp

report "scripts/test.sh (log: $log)"
phase_start="$(date +%s)"
test_status=0
in_root 'cd /root/trainscope && scripts/test.sh' 2>&1 | stamp || test_status=$?
test_seconds="$(seconds_since "$phase_start")"
# Phases inside test.sh, from the stamped log: set-up until the first compile, the build until the
# first test, then the tests.
first_stamp() { { grep -m1 -E "$1" "$log" || true; } | sed -n 's/^ *\([0-9]*\)s .*/\1/p'; }
test_start_stamp=$((phase_start - check_start))
build_start_stamp="$(first_stamp '^ *[0-9]+s \[ *[0-9]+%\]')"
tests_start_stamp="$(first_stamp '^ *[0-9]+s == engine and CLI tests')"
browser_start_stamp="$(first_stamp '^ *[0-9]+s == browser tests')"
test_end_stamp=$((test_start_stamp + test_seconds))

run_status=1
run_seconds=0
address=""
if [ "$test_status" -eq 0 ]; then
  report "scripts/run.sh"
  phase_start="$(date +%s)"
  run_output="$fresh_root/tmp/run.out"
  setsid chroot "$fresh_root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c 'cd /root/trainscope && exec scripts/run.sh' >"$run_output" 2>&1 &
  server_pgid=$!
  # run.sh builds (nothing to do after test.sh) and then prints the address it serves.
  for _ in $(seq 1 600); do
    address="$(grep -oE 'https?://[^ ]+' "$run_output" | head -n1 || true)"
    [ -n "$address" ] && break
    kill -0 "$server_pgid" 2>/dev/null || break
    sleep 1
  done
  run_seconds="$(seconds_since "$phase_start")"
  stamp <"$run_output"
  if [ -n "$address" ] && curl -fsS -o "$fresh_root/tmp/page.html" "$address" \
    && grep -qi '<html' "$fresh_root/tmp/page.html"; then
    run_status=0
    report "run.sh printed $address and it answers with the page"
  else
    report "run.sh printed no address that answers (see $run_output)"
  fi
  kill -- "-$server_pgid" 2>/dev/null || true
  wait "$server_pgid" 2>/dev/null || true
  server_pgid=""
fi

node_used="$(in_root 'cd /root/trainscope && source scripts/env.sh && echo "$(command -v node) $(node --version)"' 2>/dev/null || echo unknown)"
minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
echo
echo "fresh-check: Debian $(cat "$fresh_root/etc/debian_version"), $(uname -m), $(nproc) cores, node used: $node_used"
echo "  debootstrap minbase:       $(minutes "$debootstrap_seconds")"
echo "  apt-get install git:       $(minutes "$git_seconds")"
echo "  scripts/test.sh:           $(minutes "$test_seconds") (exit $test_status)"
if [ -n "$build_start_stamp" ] && [ -n "$tests_start_stamp" ]; then
  echo "    set-up (apt, node, npm): $(minutes $((build_start_stamp - test_start_stamp)))"
  echo "    build (native, wasm, page): $(minutes $((tests_start_stamp - build_start_stamp)))"
  if [ -n "$browser_start_stamp" ]; then
    echo "    engine, CLI, web tests:  $(minutes $((browser_start_stamp - tests_start_stamp)))"
    echo "    browser tests:           $(minutes $((test_end_stamp - browser_start_stamp)))"
  fi
fi
echo "  scripts/run.sh to address: $(minutes "$run_seconds") ($([ "$run_status" -eq 0 ] && echo "serves $address" || echo FAILED))"
[ "$test_status" -eq 0 ] && [ "$run_status" -eq 0 ]
