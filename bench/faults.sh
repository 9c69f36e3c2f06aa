#!/usr/bin/env bash
# The figures of `locklab explore --faults`, in one run, on this machine:
#  (a) each story found from a script with no fault written in it: the
#      search, its summary, the shortest failing schedule (its number,
#      steps and faults), wall time, schedules/s and peak memory
#  (b) side by side, a Jepsen-like loop: real-time runs of `load
#      --redlock 2` on three embedded nodes with a node crashing and
#      restarting empty every CRASH_EVERY cycles (a different seed each
#      run), until one shows TWO HOLDERS, against explore's time to decide
#      the restart story (every order and placement of one fault)
# Usage: bench/faults.sh [LOOP_TRIALS]
# Needs bash 5, go, and GNU time (/usr/bin/time) for peak memory.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME with a dot
cd "$(dirname "$0")/.."
trials=${1:-10}
crash_every=${CRASH_EVERY:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/locklab" .
lab="$work/locklab"
ms() { echo $(((${2/./} - ${1/./}) / 1000)); }
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%F)"

# story runs one search and prints its figures.
story() {
  local name=$1 t0 t1 took n
  shift
  t0=$EPOCHREALTIME
  /usr/bin/time -f '%M' -o "$work/rss" "$lab" explore "$@" >"$work/out" 2>&1 || true
  t1=$EPOCHREALTIME
  took=$(ms "$t0" "$t1")
  n=$(head -1 "$work/out" | awk '{ print $2 }')
  printf "  %s\n    explore %s\n    %s\n    %s; %d ms, %d schedules/s, peak RSS %d MB\n" "$name" "$*" \
    "$(head -1 "$work/out")" "$(grep -m1 '^shortest' "$work/out" || echo 'no failing schedule')" \
    "$took" $((${n//[!0-9]/} * 1000 / (took > 0 ? took : 1))) $(($(tail -1 "$work/rss") / 1024))
  grep -m1 '⚡' "$work/out" | sed 's/^/    first fault: /' || true
}

echo "(a) stories found from scripts with no fault written in them:"
story "single Redis, a pause: DOUBLE BOOKING" --faults 1 --fault-kinds time --property double-booking scripts/locked-booking.lab
story "single Redis, a restart without persistence: TWO HOLDERS" --faults 1 --fault-kinds restart --property two-holders scripts/locked-booking.lab
story "single Redis, a lost reply: no verdict (the evidence is missing)" --faults 1 --fault-kinds lost-reply scripts/locked-booking.lab
story "Redlock, a node restarting empty (Kleppmann): TWO HOLDERS" --faults 1 --fault-kinds restart repl/explore/testdata/redlock-plain.lab
story "Redlock, a node's clock jumping (Kleppmann): TWO HOLDERS" --faults 1 --fault-kinds clock-jump repl/explore/testdata/redlock-plain.lab
story "Redlock, a pause past the validity (Kleppmann): DOUBLE BOOKING + OVERLAP" --faults 1 --fault-kinds time --property double-booking repl/explore/testdata/redlock-pause-plain.lab
story "single Redis, two faults of any kind" --faults 2 scripts/locked-booking.lab

echo "(b) a Jepsen-like loop against explore (TWO HOLDERS on three Redlock nodes):"
t0=$EPOCHREALTIME
"$lab" explore --faults 1 --fault-kinds restart repl/explore/testdata/redlock-plain.lab >"$work/out" 2>&1 || true
explore_ms=$(ms "$t0" "$EPOCHREALTIME")
for ((trial = 1; trial <= trials; trial++)); do
  runs=0
  t0=$EPOCHREALTIME
  until ((runs >= 200)); do
    runs=$((runs + 1))
    seed=$((trial * 1000 + runs))
    if "$lab" -c "redlock up --nodes 3; load --redlock 2 --iterations 20 --ttl 2s --work 5ms --crash-every $crash_every --seed $seed; redlock down" 2>&1 |
      grep -q 'TWO HOLDERS'; then
      break
    fi
  done
  echo "$runs $(ms "$t0" "$EPOCHREALTIME")"
done >"$work/loop"
sort -n -k2 "$work/loop" | awk -v n="$trials" -v e="$explore_ms" -v c="$crash_every" '
  { runs[NR] = $1; time[NR] = $2 }
  END {
    m = int((n + 1) / 2)
    printf "    loop: median %d ms to the first TWO HOLDERS over %d trials (runs of 20 cycles, a crash every %d; runs it took, by trial time: ", time[m], n, c
    for (i = 1; i <= NR; i++) printf "%s%d", (i > 1 ? " " : ""), runs[i]
    printf ")\n    explore: %d ms to decide every order and placement of one restart (and print the shortest story)\n", e
  }'
