#!/usr/bin/env bash
# Load mode's performance, on one real redis-server, in one run:
#  (a) lock cycles per second of `load --mode fix --work 0` with 50 workers,
#      against redis-benchmark running the same command mix at -c 50: each of
#      SET NX PX, INCR, GET, SET, DECR and the release EVALSHA, for a "cycle
#      rate equivalent" = 1 / (sum of 1/rps over the six commands), i.e. the
#      mix's rps / 6 commands per cycle. Target: at least 0.8x.
#      For scale it also prints the same mix at -c 1: a lock lets one worker
#      in at a time, so its cycles are a chain of round trips, as one client's.
#  (b) peak RSS with 1,000 workers (fix, no work, 2 iterations): target < 200 MB.
# It runs `locklab load` when locklab has it, and until then the same code
# through the Go benchmarks in repl/load (BenchmarkCycles, BenchmarkLoad1000Workers).
# Usage: bench/load.sh [ITERATIONS_PER_WORKER (400)] [REDIS_BENCHMARK_REQUESTS (200000)]
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-400}
requests=${2:-200000}
workers=50
work=$(mktemp -d)
port=
trap '[ -n "$port" ] && redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

go build -o "$work/locklab" .
go test -c -o "$work/load.test" ./repl/load/
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --logfile "$work/redis.log"
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
export LOCKLAB_BENCH_ADDR="127.0.0.1:$port"

# json_field FIELD: reads one JSON object on stdin, prints the field.
json_field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1"; }

# max_rss_kb CMD...: runs CMD (output to $work/out) and prints its peak RSS in kB.
max_rss_kb() {
  python3 -c 'import resource,subprocess,sys
with open(sys.argv[1], "w") as out: subprocess.run(sys.argv[2:], stdout=out, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$work/out" "$@"
}

lab=("$work/locklab" -h 127.0.0.1 -p "$port")
if probe=$("${lab[@]}" load --workers 1 --iterations 1 --work 0 --json 2>/dev/null) &&
  echo "$probe" | json_field cycles_per_sec >/dev/null 2>&1; then
  how="locklab load"
  json=$("${lab[@]}" load --mode fix --work 0 --ttl 2s --workers "$workers" --iterations "$iterations" --json)
  rss_kb=$(max_rss_kb "${lab[@]}" load --mode fix --work 0 --ttl 2s --workers 1000 --iterations 2 --json)
else
  how="go test -bench (locklab has no load command yet)"
  LOCKLAB_BENCH_JSON="$work/cycles.json" "$work/load.test" -test.run '^$' -test.bench '^BenchmarkCycles$' \
    -test.benchtime "$((workers * iterations))x" >"$work/cycles.out"
  json=$(cat "$work/cycles.json")
  rss_kb=$(max_rss_kb "$work/load.test" -test.run '^$' -test.bench '^BenchmarkLoad1000Workers$' -test.benchtime 1x)
fi
cycles=$(echo "$json" | json_field cycles_per_sec)
sections=$(echo "$json" | json_field sections)
failed=$(echo "$json" | json_field failed_attempts)
elapsed_ms=$(echo "$json" | json_field elapsed_ms)

# The release script is the one load mode loads (repl/load/scripts.go).
sha=$(redis-cli -p "$port" SCRIPT LOAD "local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  return redis.call('DEL', KEYS[1])
elseif v then
  return 0
end
return -1")
mix=("SET lock:bench tok NX PX 2000" "INCR lock:bench:inside" "GET lock:bench:resource"
  "SET lock:bench:resource 1" "DECR lock:bench:inside" "EVALSHA $sha 1 lock:bench tok")
# mix_rate CLIENTS REQUESTS: the mix's cycle rate equivalent; per-command rps on stderr.
mix_rate() {
  local inv=0 c rps
  for c in "${mix[@]}"; do
    # shellcheck disable=SC2086 # the command's words
    rps=$(redis-benchmark -p "$port" -c "$1" -n "$2" --csv $c 2>/dev/null | tail -1 | cut -d'"' -f4)
    printf '    %-56s %10.0f rps\n' "$c" "$rps" >&2
    inv=$(awk -v a="$inv" -v r="$rps" 'BEGIN { printf "%.12f", a + 1/r }')
  done
  awk -v a="$inv" 'BEGIN { printf "%.1f", 1/a }'
}
echo "redis-benchmark, the load cycle's six commands:" >&2
echo "  at -c $workers:" >&2
rb50=$(mix_rate "$workers" "$requests")
echo "  at -c 1:" >&2
rb1=$(mix_rate 1 "$((requests / 4))")

awk -v how="$how" -v w="$workers" -v s="$sections" -v e="$elapsed_ms" -v c="$cycles" -v f="$failed" \
  -v rb50="$rb50" -v rb1="$rb1" -v rss="$rss_kb" 'BEGIN {
  printf "(a) load --mode fix --work 0, %d workers, via %s:\n", w, how
  printf "    %d cycles in %.0f ms: %.0f lock cycles/s (%.1f failed SET NX per cycle, %.0f commands/s in all)\n", s, e, c, f/s, (6*s+f)/(e/1000)
  printf "    redis-benchmark, same mix at -c %d: %.0f cycles/s equivalent; ratio %.2fx (target >= 0.8x)\n", w, rb50, c/rb50
  printf "    redis-benchmark, same mix at -c 1 (one lock = one cycle at a time): %.0f cycles/s; ratio %.2fx\n", rb1, c/rb1
  printf "(b) 1,000 workers (fix, --work 0, 2 iterations): peak RSS %.1f MB (target < 200 MB)\n", rss/1024
}'
