#!/usr/bin/env bash
# How long `redlock up` takes (issue 14): five embedded nodes (target
# under 50 ms) and five redis-server processes with --real (under 2 s).
#
#  (a) Up itself, with Go's benchmark harness (BenchmarkUp,
#      BenchmarkUpReal in repl/lab/redlock): RUNS (20) ups a count, COUNT (5)
#      counts; the median count's ms per up is quoted, min and max beside.
#      Down is not timed.
#  (b) The whole word from the outside: `locklab -c 'redlock up ...;
#      redlock down'` against `locklab -c 'redlock down'` (the process,
#      its embedded Redis, no nodes), each 5 times in turn; the medians and
#      their difference are quoted.
#
# It exits 1 when a median of (a) misses its target.
# Usage: bench/redlock.sh   Needs bash 5, go, awk, redis-server for --real.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME with a dot
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
count=${COUNT:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# median: the middle of the numbers on stdin (the lower of the two
# middles for an even count), and min and max.
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f (min %.2f, max %.2f)", v[int((NR + 1) / 2)], v[1], v[NR] }'; }

go test -run '^$' -bench 'BenchmarkUp' -benchtime "${runs}x" -count "$count" ./repl/lab/redlock >"$work/bench.txt"
status=0
for name in Up UpReal; do
  ms=$(awk -v b="Benchmark$name-" 'index($1, b) == 1 { print $3 / 1e6 }' "$work/bench.txt" | median)
  target=50
  [ "$name" = UpReal ] && target=2000
  printf 'redlock up%-8s %s ms per up, %d ups x %d counts; target < %d ms\n' \
    "$([ "$name" = UpReal ] && echo ' --real')" "$ms" "$runs" "$count" "$target"
  if ! awk -v m="${ms%% *}" -v t="$target" 'BEGIN { exit !(m < t) }'; then status=1; fi
done

go build -o "$work/locklab" .
# wall LINE: the seconds locklab -c LINE took, in ms.
wall() {
  local t0=$EPOCHREALTIME
  "$work/locklab" -c "$1" >/dev/null
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }'
}
for up in 'redlock up' 'redlock up --real'; do
  : >"$work/a" && : >"$work/b"
  for _ in 1 2 3 4 5; do
    wall "$up; redlock down" >>"$work/a"
    wall 'redlock down' >>"$work/b"
  done
  a=$(median <"$work/a") b=$(median <"$work/b")
  printf "locklab -c '%s; redlock down': %s ms; without nodes: %s ms; difference of medians %.1f ms\n" \
    "$up" "$a" "$b" "$(awk -v a="${a%% *}" -v b="${b%% *}" 'BEGIN { print a - b }')"
done
exit "$status"
