#!/usr/bin/env bash
# Load mode's performance on one real redis-server, side by side with
# redis-benchmark in the same run, and the ratios (locklab / peer):
#
#  (a) lock cycles per second of `load --mode fix --work 0` with 50 workers,
#      each on a lock of its own (--locks 50), so that, as in redis-benchmark,
#      no client waits for another. A cycle is 6 commands in 3 round trips:
#      SET NX PX; then INCR inside + GET resource; then SET resource ... GET
#      (it answers the value it replaced: lost updates are counted from it)
#      + DECR inside + the release EVALSHA. redis-benchmark runs the same commands
#      at -c 50, each at the pipeline depth of its round trip (-P 1, 2, 3),
#      and its cycle rate is 1 / (sum of 1/rps over the six commands). Its
#      SET NX PX goes to a fresh key each time (-r), so that it takes a lock
#      as each of locklab's does; its release finds no lock to delete (no
#      tool can pair them), which is in redis-benchmark's favour.
#      Target: at least 0.8x. For scale it also prints the ratio against the
#      same six commands sent one per round trip (-P 1), as redis-benchmark
#      does by default.
#  (b) 50 workers on one lock, once per retry policy (--retry fixed,
#      backoff, notify; notify is the default). A lock lets one worker in at
#      a time, so its cycles are one chain of round trips, plus the
#      hand-over to the next worker: compared with one client running the
#      same cycle back to back: locklab's own (load --workers 1, which never
#      retries: the bare cycle, no announcement), and one redis-benchmark
#      client (-c 1) running the cycle's round trips. Target for the
#      default: at least 0.9x of one client.
#  (d) 1,000 workers on one lock, once per retry policy, sharing out the
#      same number of cycles as the 50 (ITERATIONS_PER_WORKER / 20 each),
#      compared with the 50 workers under the same policy: the lock must
#      not collapse as the workers grow. Target for the default: at least
#      0.8x.
#  (c) peak RSS with 1,000 workers (fix, --work 0, 2 iterations): target
#      under 200 MB.
#
# A round runs each case once, each ratio's two runs one after the other
# (one client, then 50 workers, then 1,000, for each policy), so both see
# the same machine; ROUNDS rounds (9), and the summary is the median of
# the rounds' ratios (and of the rates and the failed attempts per cycle).
# The machine may be shared: look at the rounds' spread.
# Usage: bench/load.sh [ROUNDS (9)] [ITERATIONS_PER_WORKER (400)] [REDIS_BENCHMARK_REQUESTS (50000)]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
iterations=${2:-400}
requests=${3:-50000}
workers=50
work=$(mktemp -d)
port=
trap '[ -n "$port" ] && redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

go build -o "$work/locklab" .
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --logfile "$work/redis.log"
for ((i = 0; i < 100; i++)); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
redis-cli -p "$port" ping >/dev/null || { echo "redis-server did not start:"; cat "$work/redis.log"; exit 1; }
lab=("$work/locklab" -h 127.0.0.1 -p "$port")

# json_field FIELD: reads one JSON object on stdin, prints the field.
json_field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1"; }

# run WORKERS ITERATIONS LOCKS RETRY: "cycles/s failed-attempts-per-cycle"
# of load --mode fix --work 0, stopped (SIGINT, as Ctrl-C) after $limit
# seconds at most: the rate is then over what ran (the retry storm of
# 1,000 workers under --retry fixed can make a few dozen cycles a second).
limit=20
run() {
  local json
  json=$(timeout -s INT "$limit" "${lab[@]}" load --mode fix --work 0 --ttl 2s --workers "$1" --iterations "$2" \
    --locks "$3" --retry "$4" --json) || true # its status is the verdict's, checked next
  [ "$(echo "$json" | json_field verdict)" = ok ] || { echo "a clean run is not OK: $json" >&2; exit 1; }
  echo "$json" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["cycles_per_sec"], d["failed_attempts"]/d["sections"])'
}
policies=(fixed backoff notify)
many=1000
many_iterations=$(( (iterations * workers + many - 1) / many ))

# The release script is the one load mode loads (repl/lab/load/scripts.go).
sha=$(redis-cli -p "$port" SCRIPT LOAD "local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if KEYS[2] and redis.call('DEL', KEYS[2]) == 1 then redis.call('PUBLISH', ARGV[2], KEYS[1]) end
  return 1
elseif v then
  return 0
end
return -1")
# A cycle's commands, each with the depth of the round trip it goes in.
mix=("1 SET lock:bench:__rand_int__ tok NX PX 2000"
  "2 INCR lock:bench:inside" "2 GET lock:bench:resource"
  "3 SET lock:bench:resource 1 GET" "3 DECR lock:bench:inside" "3 EVALSHA $sha 1 lock:bench tok")

# mix_rate CLIENTS REQUESTS PIPELINED: the cycle rate equivalent of the
# mix; with PIPELINED=no every command goes alone (-P 1).
mix_rate() {
  local inv=0 entry depth c rps
  for entry in "${mix[@]}"; do
    depth=${entry%% *} c=${entry#* }
    [ "$3" = yes ] || depth=1
    # shellcheck disable=SC2086 # the command's words
    rps=$(redis-benchmark -p "$port" -c "$1" -n "$2" -P "$depth" -r 100000000 --csv $c 2>"$work/rb.err" | tail -1 | cut -d'"' -f4)
    [[ $rps =~ ^[0-9.]+$ ]] || { echo "redis-benchmark $c: no rate:" >&2; cat "$work/rb.err" >&2; exit 1; }
    inv=$(awk -v a="$inv" -v r="$rps" 'BEGIN { printf "%.12f", a + 1/r }')
  done
  awk -v a="$inv" 'BEGIN { printf "%.1f", 1/a }'
}

results=()
for ((r = 1; r <= rounds; r++)); do
  own=$(run "$workers" "$iterations" "$workers" notify)
  rb=$(mix_rate "$workers" "$requests" yes)
  rb1=$(mix_rate "$workers" "$requests" no)
  chain=$(mix_rate 1 "$((requests / 4))" yes)
  row="${own% *} $rb $rb1 $chain"
  for p in "${policies[@]}"; do # each ratio's two runs one after the other
    one=$(run 1 "$((iterations * workers))" 1 fixed)
    fifty=$(run "$workers" "$iterations" 1 "$p")
    thousand=$(run "$many" "$many_iterations" 1 "$p")
    row+=" ${one% *} $fifty $thousand" # cycles/s, and failed attempts per cycle for the two
  done
  results+=("$row")
  echo "round $r: $row" | awk '{ printf "round %-3s (a) %.0f vs %.0f (%.2fx); redis-benchmark -c 1 %.0f;", $2, $3, $4, $3/$4, $6
    for (i = 0; i < 3; i++) { c = 7 + 5 * i; printf "%s %s: one %.0f, 50 %.0f, 1,000 %.0f", i == 0 ? "" : ";", i == 0 ? "fixed" : i == 1 ? "backoff" : "notify", $c, $(c+1), $(c+3) }
    printf " cycles/s\n" }' >&2
done

rss_kb=$(python3 -c 'import resource,subprocess,sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
  "${lab[@]}" load --mode fix --work 0 --ttl 2s --workers 1000 --iterations 2 --json)

printf '%s\n' "${results[@]}" | python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
med = lambda f: statistics.median(f(r) for r in rows)
span = lambda f: "%.2f-%.2fx" % (min(f(r) for r in rows), max(f(r) for r in rows))
w, many, rss = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
print(f"(a) load --mode fix --work 0, {w} workers on {w} locks: {med(lambda r: r[0]):.0f} lock cycles/s (median of {len(rows)} rounds)")
print(f"    vs redis-benchmark -c {w}, the same commands in the same round trips: ratio {med(lambda r: r[0]/r[1]):.2f}x, rounds {span(lambda r: r[0]/r[1])} (target >= 0.8x)")
print(f"    vs redis-benchmark -c {w}, the same commands one per round trip:      ratio {med(lambda r: r[0]/r[2]):.2f}x")
print(f"(b) {w} workers on one lock, vs one client running the cycle back to back: locklab --workers 1 (run just before each) and redis-benchmark -c 1 {med(lambda r: r[3]):.0f} cycles/s")
for i, p in enumerate(["fixed", "backoff", "notify"]):
    c = 4 + 5 * i
    goal = " (the default; target >= 0.9x)" if p == "notify" else ""
    print(f"    --retry {p:7s} {med(lambda r: r[c+1]):6.0f} cycles/s, {med(lambda r: r[c+2]):5.2f} failed/cycle: {med(lambda r: r[c+1]/r[c]):.2f}x one locklab client (rounds {span(lambda r: r[c+1]/r[c])}), {med(lambda r: r[c+1]/r[3]):.2f}x redis-benchmark -c 1{goal}")
print(f"(d) {many:,} workers on one lock ({w * int(sys.argv[4])} cycles shared out), vs the {w} workers with the same retry (run just before):")
for i, p in enumerate(["fixed", "backoff", "notify"]):
    c = 4 + 5 * i
    goal = " (the default; target >= 0.8x)" if p == "notify" else ""
    print(f"    --retry {p:7s} {med(lambda r: r[c+3]):6.0f} cycles/s, {med(lambda r: r[c+4]):5.2f} failed/cycle: {med(lambda r: r[c+3]/r[c+1]):.2f}x (rounds {span(lambda r: r[c+3]/r[c+1])}){goal}")
print(f"(c) 1,000 workers (fix, --work 0, 2 iterations): peak RSS {rss/1024:.1f} MB (target < 200 MB)")
' "$workers" "$many" "$rss_kb" "$iterations"
