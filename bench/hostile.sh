#!/usr/bin/env bash
# The hostile corpus (testdata/hostile/attacks.txt) against locklab, as
# TestHostile runs it: each line as -c, piped or in a script, in a canary
# tree of its own, watched from outside the process (strace when it can
# trace here; always the canaries, a FIFO watch and the output). Prints
# how many attacks held and how many did not, and each one that did not
# with what was seen. Exits 1 when any did not hold.
# HOSTILE_NO_STRACE=1 watches without strace, to see what the canaries
# alone catch.
# Usage: bench/hostile.sh   Needs bash, go and Linux; strace for the
# full watch.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if command -v strace >/dev/null && [ -z "${HOSTILE_NO_STRACE:-}" ]; then
  echo "observer: strace $(strace -V | head -n 1 | awk '{print $NF}'), canaries, FIFO watch, output"
else
  echo "observer: canaries, FIFO watch and output only (no strace)"
fi
go test -count=1 -run '^TestHostile$' -v . >"$work/out" 2>&1 || true
held=$(grep -c ': held: ' "$work/out" || true)
not_held=$(grep -c ': NOT HELD: ' "$work/out" || true)
if [ $((held + not_held)) -eq 0 ]; then
  echo "TestHostile ran no attack:"; cat "$work/out"; exit 1
fi
echo "attacks held: $held"
echo "attacks not held: $not_held"
if [ "$not_held" -gt 0 ]; then
  echo
  # Each finding: its NOT HELD line and the indented lines of what was seen.
  awk '/: NOT HELD: / { sub(/^.*: NOT HELD: /, "NOT HELD: "); print; seen = 1; next }
       seen && /^\t/ { print; next }
       seen && /^ +\t/ { sub(/^ +/, ""); print; next }
       { seen = 0 }' "$work/out"
  exit 1
fi
