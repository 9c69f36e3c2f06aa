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
#  (e) explore's raw search against the isolationtester-style peer
#      (bench/peer/isolation.py: every raw order run against a
#      redis-server, one connection per session), on the two- and
#      three-bidder scripts and bench/all-conflicting.lab: schedules/s,
#      the ratio, counts checked equal, peak memory against schedules,
#      and the all-conflicting 3 x 5 searched in full (reduced, which
#      cuts nothing there) within FULL_SECONDS (120) and MEM_CAP_MB (4096)
# Usage: bench/explore.sh [TRIALS] [RAW_SCHEDULES]   every section
#        bench/explore.sh peer [RAW_SCHEDULES]        (e) alone
# Needs bash 5, go, redis-server, redis-cli and python3 (for a free port
# and the peer).
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME with a dot
cd "$(dirname "$0")/.."
only=""
if [ "${1:-}" = peer ]; then
  only=peer
  shift
  set -- 20 "$@"
fi
trials=${1:-20}
raw_schedules=${2:-20000}
full_seconds=${FULL_SECONDS:-120}
mem_cap_mb=${MEM_CAP_MB:-4096}
work=$(mktemp -d)
stop_server() {
  [ -s "$work/redis.pid" ] || return 0
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || kill "$(cat "$work/redis.pid")" 2>/dev/null || true
}
explore_pid="" # (e)'s search in full, run in the background
trap '[ -z "$explore_pid" ] || kill -TERM "$explore_pid" 2>/dev/null; stop_server; rm -rf "$work"' EXIT
go build -o "$work/locklab" .
lab="$work/locklab"
ms() { echo $(((${2/./} - ${1/./}) / 1000)); }
# start_server starts the run's redis-server on a free port, once.
start_server() {
  [ -s "$work/redis.pid" ] && return 0
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$work" --logfile "$work/redis.log" --pidfile "$work/redis.pid"
  until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
}
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -z "$only" ]; then

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
start_server
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
fi

echo "(e) explore's raw search against the isolationtester-style peer (bench/peer/isolation.py):"
start_server
echo "    the peer: python3 on redis-server $(redis-server --version | awk '{ sub("v=", "", $3); print $3 }') on 127.0.0.1:$port, one connection per session, main's DEL resets each schedule; load $(cut -d' ' -f1-3 /proc/loadavg)"
alive() { [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
# measure OUT CMD...: runs CMD, its stdout in OUT, and sets took_ms and
# peak_kb, its peak resident set (/usr/bin/time's %M, else VmHWM read
# from /proc while it runs).
measure() {
  local out=$1 t0=$EPOCHREALTIME pid hwm
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$work/rss" "$@" >"$out" 2>"$work/stderr" || true
    peak_kb=$(tail -1 "$work/rss")
  else
    "$@" >"$out" 2>"$work/stderr" &
    pid=$! peak_kb=0
    while alive "$pid"; do
      hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
      peak_kb=${hwm:-$peak_kb}
      sleep 0.1
    done
    wait "$pid" || true
  fi
  took_ms=$(ms "$t0" "$EPOCHREALTIME")
}
# agree prints explore's summary and the peer's, and whether they agree.
agree() {
  local verdict="the counts agree"
  [ "$1" = "$2" ] || verdict="THE COUNTS DIFFER"
  printf "      explore: %s\n      peer:    %s (%s)\n" "$1" "$2" "$verdict"
}
load() { cut -d' ' -f1 /proc/loadavg; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }'; }
# The small spaces: explore's rate is go test -bench's, the whole space
# explored again and again in one process (as the peer runs it again and
# again on its open connections); the binary's, start-up included, is
# shown beside it.
go test -run XXX -bench 'TwoBidders/bidders/raw=true' -benchtime 3s ./repl/explore/ >"$work/bench"
for script in two-bidders three-bidders; do
  file=repl/explore/testdata/$script.lab
  bench_rate=$(awk -v s="$script" '$1 ~ "/"s"/raw=true" { printf "%.0f", $(NF-1) }' "$work/bench")
  measure "$work/explore.out" "$lab" explore --no-reduce "$file"
  summary=$(head -1 "$work/explore.out")
  n=$(awk '{ print $2 }' <<<"$summary")
  runs=0 t0=$EPOCHREALTIME
  while (($(ms "$t0" "$EPOCHREALTIME") < 3000)); do
    "$lab" explore --no-reduce "$file" >/dev/null 2>&1 || true
    runs=$((runs + 1))
  done
  binary_rate=$((runs * n * 1000 / $(ms "$t0" "$EPOCHREALTIME")))
  python3 bench/peer/isolation.py --port "$port" --seconds 3 "$script" >"$work/peer.out"
  peer_rate=$(awk '/^rate:/ { print $2 }' "$work/peer.out")
  echo "    $script (the whole raw space, $n schedules):"
  printf "      explore %6d schedules/s (go test -bench, %d workers)   peer %6d schedules/s   explore/peer %sx   load %s\n" \
    "$bench_rate" "$(nproc)" "$peer_rate" "$(ratio "$bench_rate" "$peer_rate")" "$(load)"
  printf "      the locklab binary, start-up included: %d schedules/s (%d runs in 3 s); one run %d ms, peak RSS %d MB for %d schedules\n" \
    "$binary_rate" "$runs" "$took_ms" $((peak_kb / 1024)) "$n"
  agree "$summary" "$(sed -n 's/^summary: //p' "$work/peer.out")"
done

# all-conflicting: its first raw_schedules raw orders, by both.
file=bench/all-conflicting.lab
quarter=$((raw_schedules / 4))
echo "    all-conflicting (bench/all-conflicting.lab, 756,756 raw orders), the first $raw_schedules raw orders:"
measure "$work/explore.out" "$lab" explore --no-reduce --max-schedules "$raw_schedules" --max-steps 100000000 "$file"
summary=$(head -1 "$work/explore.out") raw_ms=$took_ms bounded_kb=$peak_kb
explore_rate=$((raw_schedules * 1000 / (raw_ms > 0 ? raw_ms : 1)))
python3 bench/peer/isolation.py --port "$port" --max-schedules "$raw_schedules" all-conflicting >"$work/peer.out"
peer_rate=$(awk '/^rate:/ { print $2 }' "$work/peer.out")
printf "      explore %6d schedules/s (the binary, %d ms)   peer %6d schedules/s   explore/peer %sx   load %s\n" \
  "$explore_rate" "$raw_ms" "$peer_rate" "$(ratio "$explore_rate" "$peer_rate")" "$(load)"
agree "$summary" "$(sed -n 's/^summary: //p' "$work/peer.out")"
# The reduction cuts nothing: reduced and raw agree on the first quarter.
for mode in raw reduced; do
  flag=--no-reduce
  [ "$mode" = raw ] || flag=""
  measure "$work/$mode.json" "$lab" explore $flag --json --max-schedules "$quarter" --max-steps 100000000 "$file"
  declare "${mode}_kb=$peak_kb"
done
python3 - "$work/raw.json" "$work/reduced.json" <<'PY'
import json, sys
raw, red = (json.load(open(f)) for f in sys.argv[1:])
keys = ("schedules", "cut_as_equivalent", "steps", "verdicts")
same = all(raw[k] == red[k] for k in keys)
print("      reduced against raw over the first %d: %s (reduced: %d schedules, %d cut as equivalent, %d steps; raw: %d schedules, %d steps)"
      % (raw["schedules"], "the same, nothing cut" if same and red["cut_as_equivalent"] == 0 else "THEY DIFFER",
         red["schedules"], red["cut_as_equivalent"], red["steps"], raw["schedules"], raw["steps"]))
PY
printf "      explore's peak RSS, raw: %d MB at %d schedules (with --json), %d MB at %d: %d KB more per schedule\n" \
  $((raw_kb / 1024)) "$quarter" $((bounded_kb / 1024)) "$raw_schedules" $(((bounded_kb - raw_kb) / (raw_schedules - quarter)))
printf "      and reduced: %d MB at %d schedules\n" $((reduced_kb / 1024)) "$quarter"

# watch PID SECONDS CAP_MB: stops PID (SIGTERM: explore reports what it
# ran) once it has run SECONDS or its resident set passes CAP_MB; sets
# stopped (why, or "") and peak_kb (VmHWM, read every 0.2 s).
watch() {
  local pid=$1 t0=$EPOCHREALTIME rss hwm sent=""
  stopped="" peak_kb=0
  while alive "$pid"; do
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    peak_kb=${hwm:-$peak_kb}
    if [ -z "$stopped" ] && (($(ms "$t0" "$EPOCHREALTIME") >= $2 * 1000)); then
      stopped="after $2 s"
    elif [ -z "$stopped" ] && ((${rss:-0} > $3 * 1024)); then
      stopped="at the memory cap ($3 MB resident)"
    fi
    if [ -n "$stopped" ] && [ -z "$sent" ]; then
      kill -TERM "$pid" 2>/dev/null || true
      sent=1
    fi
    sleep 0.2
  done
}
echo "    all-conflicting in full, reduced (it cuts nothing here), within $full_seconds s and $mem_cap_mb MB:"
t0=$EPOCHREALTIME
"$lab" explore --max-schedules 1000000 --max-steps 100000000 "$file" >"$work/full.out" 2>&1 &
explore_pid=$!
watch "$explore_pid" "$full_seconds" "$mem_cap_mb"
wait "$explore_pid" || true
explore_pid=""
took_ms=$(ms "$t0" "$EPOCHREALTIME")
summary=$(head -1 "$work/full.out")
n=$(awk '{ print $2 }' <<<"$summary")
n=${n//[!0-9]/}
if [ -z "$stopped" ]; then
  printf "      decided in %d.%03d s: %s\n" $((took_ms / 1000)) $((took_ms % 1000)) "$summary"
else
  printf "      bounded at %s schedules of 756,756 %s (%d.%03d s): %s\n" "$n" "$stopped" $((took_ms / 1000)) $((took_ms % 1000)) "$summary"
fi
printf "      peak RSS %d MB for %s schedules; %d schedules/s; load %s\n" $((peak_kb / 1024)) "$n" $((${n:-0} * 1000 / (took_ms > 0 ? took_ms : 1))) "$(load)"
