#!/usr/bin/env bash
# Load mode's performance on one real redis-server, side by side with
# redis-benchmark in the same run, and the ratios (locklab / redis-benchmark):
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
#  (b) the same 50 workers on one lock. A lock lets one worker in at a time,
#      so its cycles are one chain of round trips, plus the hand-over to the
#      next worker: compared with one redis-benchmark client (-c 1) running
#      the cycle's round trips. No target: the lock is the limit here, and
#      this shows how close to it locklab comes. It also prints (b) against
#      (a)'s redis-benchmark rate, whose 50 clients never wait for one
#      another: no lock that lets one holder in at a time can reach it.
#  (c) peak RSS with 1,000 workers (fix, --work 0, 2 iterations): target
#      under 200 MB.
#
# A round runs locklab, then redis-benchmark, then the other case; ROUNDS
# rounds (9) alternate them so both see the same machine, and the summary
# is the median of the rounds' ratios.
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

# cycles LOCKS: lock cycles per second of load --mode fix --work 0 on LOCKS locks.
cycles() {
  local json
  json=$("${lab[@]}" load --mode fix --work 0 --ttl 2s --workers "$workers" --iterations "$iterations" \
    --locks "$1" --json) || true # its status is the verdict's, checked next
  [ "$(echo "$json" | json_field verdict)" = ok ] || { echo "a clean run is not OK: $json" >&2; exit 1; }
  echo "$json" | json_field cycles_per_sec
}

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

printf '%-6s %28s %24s %24s\n' round "(a) own locks: locklab" "redis-benchmark -P 1,2,3" "redis-benchmark -P 1" >&2
results=()
for ((r = 1; r <= rounds; r++)); do
  own=$(cycles "$workers")
  rb=$(mix_rate "$workers" "$requests" yes)
  rb1=$(mix_rate "$workers" "$requests" no)
  one=$(cycles 1)
  chain=$(mix_rate 1 "$((requests / 4))" yes)
  results+=("$own $rb $rb1 $one $chain")
  awk -v r="$r" -v o="$own" -v b="$rb" -v b1="$rb1" -v n="$one" -v c="$chain" 'BEGIN {
    printf "%-6d %17.0f cycles/s %15.0f (%.2fx) %15.0f (%.2fx)\n", r, o, b, o/b, b1, o/b1
    printf "%-6s %17.0f cycles/s %15.0f (%.2fx)   (b) one lock vs one client\n", "", n, c, n/c
  }' >&2
done

rss_kb=$(python3 -c 'import resource,subprocess,sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
  "${lab[@]}" load --mode fix --work 0 --ttl 2s --workers 1000 --iterations 2 --json)

printf '%s\n' "${results[@]}" | python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
med = lambda f: statistics.median(f(r) for r in rows)
w, rss = int(sys.argv[1]), float(sys.argv[2])
lo, hi = min(r[0]/r[1] for r in rows), max(r[0]/r[1] for r in rows)
print(f"(a) load --mode fix --work 0, {w} workers on {w} locks: {med(lambda r: r[0]):.0f} lock cycles/s (median of {len(rows)} rounds)")
print(f"    vs redis-benchmark -c {w}, the same commands in the same round trips: ratio {med(lambda r: r[0]/r[1]):.2f}x, rounds {lo:.2f}-{hi:.2f}x (target >= 0.8x)")
print(f"    vs redis-benchmark -c {w}, the same commands one per round trip:      ratio {med(lambda r: r[0]/r[2]):.2f}x")
print(f"(b) the {w} workers on one lock: {med(lambda r: r[3]):.0f} lock cycles/s")
print(f"    vs one redis-benchmark client running the same round trips back to back: ratio {med(lambda r: r[3]/r[4]):.2f}x")
print(f"    vs redis-benchmark -c {w} as in (a), which no lock can reach, as it lets one cycle in at a time: ratio {med(lambda r: r[3]/r[1]):.2f}x")
print(f"(c) 1,000 workers (fix, --work 0, 2 iterations): peak RSS {rss/1024:.1f} MB (target < 200 MB)")
' "$workers" "$rss_kb"
