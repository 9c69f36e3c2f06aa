#!/usr/bin/env bash
# The figures of `locklab explore`, in one run, on this machine:
#  (a) schedules per second, raw and reduced, on the two- and
#      three-bidder scripts (go test -bench), and what one schedule
#      costs on one CPU, taken apart (what bounds the rate)
#  (b) every shipped .lab explored: its summary and its wall time
#  (c) the 3-session x 5-step space (756,756 raw orders,
#      bench/three-by-five.lab): the reduced search, complete, and the
#      raw search's rate over its first RAW_SCHEDULES schedules, with the
#      time the whole raw space would take at that rate (an estimate,
#      said so)
#  (d) side by side: how many real-time runs of the two-bidder script on
#      a redis-server it takes to see its double booking once (median of
#      TRIALS trials), against explore's time to decide every order
# Usage: bench/explore.sh [TRIALS] [RAW_SCHEDULES]
# Needs bash 5, go, redis-server, redis-cli and python3 (for a free port).
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME with a dot
cd "$(dirname "$0")/.."
trials=${1:-20}
raw_schedules=${2:-20000}
work=$(mktemp -d)
stop_server() {
  [ -s "$work/redis.pid" ] || return 0
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || kill "$(cat "$work/redis.pid")" 2>/dev/null || true
}
trap 'stop_server; rm -rf "$work"' EXIT
go build -o "$work/locklab" .
lab="$work/locklab"
ms() { echo $(((${2/./} - ${1/./}) / 1000)); }
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"

echo "(a) schedules per second (go test -bench TwoBidders ./repl/explore/):"
go test -run XXX -bench TwoBidders -benchtime 2s ./repl/explore/ |
  awk '/schedules\/s/ { sub("BenchmarkTwoBidders/", "", $1); sub("-[0-9]+$", "", $1); printf "    %-28s %8.0f schedules/s\n", $1, $(NF-1) }'

echo "    what one two-bidder schedule costs on one CPU (go test -bench ScheduleCost -cpu 1):"
go test -run XXX -bench ScheduleCost -benchtime 1s -cpu 1 ./repl/explore/ |
  awk '/^BenchmarkScheduleCost/ { sub("BenchmarkScheduleCost/", "", $1); printf "      %-28s %6.0f µs\n", $1, $3 / 1000 }'

echo "(b) every shipped script:"
for f in scripts/*.lab; do
  t0=$EPOCHREALTIME
  summary=$("$lab" explore "$f" 2>&1 | head -1 || true)
  t1=$EPOCHREALTIME
  printf "    %-28s %6d ms  %s\n" "$(basename "$f")" "$(ms "$t0" "$t1")" "${summary:0:150}"
done

echo "(c) 3 sessions x 5 steps (bench/three-by-five.lab, 756,756 raw orders):"
t0=$EPOCHREALTIME; reduced=$("$lab" explore bench/three-by-five.lab | head -1); t1=$EPOCHREALTIME
printf "    reduced: %d ms  %s\n" "$(ms "$t0" "$t1")" "$reduced"
t0=$EPOCHREALTIME
raw=$("$lab" explore --no-reduce --max-schedules "$raw_schedules" --max-steps 100000000 bench/three-by-five.lab | head -1)
t1=$EPOCHREALTIME
raw_ms=$(ms "$t0" "$t1")
rate=$((raw_schedules * 1000 / (raw_ms > 0 ? raw_ms : 1)))
printf "    raw:     %d ms  %s\n" "$raw_ms" "$raw"
printf "    raw rate %d schedules/s: the whole raw space would take about %d s (estimate)\n" "$rate" $((756756 / (rate > 0 ? rate : 1)))

echo "(d) real-time runs against explore, on redis-server:"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --logfile "$work/redis.log" --pidfile "$work/redis.pid"
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
# shows runs script on the server and reports whether its verdict named
# the bug (its whole output read: no early exit).
shows() {
  local out
  out=$("$lab" -p "$port" "$1" 2>&1 || true)
  [[ $out == *$'\nverdict: '"$2"* ]]
}
# side_by_side: the real-time runs until the bug shows once (median of
# the trials, by time), explore's time for every order, and the saved
# shortest schedule's runs on the server.
side_by_side() {
  local script=$1 bug=$2 runs t0 t1 summary held=0
  : >"$work/trials"
  for ((t = 0; t < trials; t++)); do
    runs=1 t0=$EPOCHREALTIME
    until shows "$script" "$bug" || ((runs >= 1000)); do runs=$((runs + 1)); done
    echo "$runs $(ms "$t0" "$EPOCHREALTIME")" >>"$work/trials"
  done
  t0=$EPOCHREALTIME; summary=$("$lab" explore "$script" | head -1 || true); t1=$EPOCHREALTIME
  echo "    $(basename "$script"), $bug:"
  sort -n -k2 "$work/trials" | awk -v n="$trials" -v ems="$(ms "$t0" "$t1")" -v s="$summary" '
    { runs[NR] = $1; time[NR] = $2; all += $1 }
    END {
      m = int((NR + 1) / 2)
      printf "      real time: %d runs in all over %d trials; median %d run(s), %d ms to see it once (slowest %d ms)\n", all, n, runs[m], time[m], time[NR]
      printf "      explore:   %d ms to run every order: %s\n", ems, s
    }'
  "$lab" explore --save "$work/saved.lab" "$script" >/dev/null 2>&1 || true
  for ((t = 0; t < trials; t++)); do
    if shows "$work/saved.lab" "$bug"; then held=$((held + 1)); fi
  done
  printf "      the saved shortest schedule on redis-server: %s in %d/%d runs\n" "$bug" "$held" "$trials"
}
side_by_side repl/explore/testdata/two-bidders.lab "DOUBLE BOOKING"
side_by_side repl/explore/testdata/three-bidders.lab "OVERBOOKING"
