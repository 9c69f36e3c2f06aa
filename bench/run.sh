#!/usr/bin/env bash
# Compares locklab with redis-cli on one real redis-server, in one run:
#  (a) one command as a whole process, `locklab -p P SET k v` against
#      `redis-cli -p P SET k v`, in alternated pairs (A B, then B A, ...):
#      the median of the pairs' ratios holds while the machine's speed
#      drifts, which a ratio of two totals does not
#  (b) 100,000 commands piped on stdin, with a check that both print the
#      same bytes
# and prints the ratios (locklab / redis-cli; below 1 means locklab is
# faster). It exits 1 when (a)'s median ratio is above 1.3 (or with
# MAX_RATIO=R, above R), or when (b)'s outputs differ.
# Usage: bench/run.sh [PAIRS] [PIPED_COMMANDS]
# Needs bash 5, go, redis-server, redis-cli and python3 (for a free port).
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME with a dot
cd "$(dirname "$0")/.."
pairs=${1:-300}
piped=${2:-100000}
max_ratio=${MAX_RATIO:-1.3}
work=$(mktemp -d)
stop_server() {
  [ -s "$work/redis.pid" ] || return 0
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || kill "$(cat "$work/redis.pid")" 2>/dev/null || true
}
trap 'stop_server; rm -rf "$work"' EXIT

go build -o "$work/locklab" .
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --logfile "$work/redis.log" --pidfile "$work/redis.pid"
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done

cli=(redis-cli -p "$port" SET k v)
lab=("$work/locklab" -p "$port" SET k v)
# One warm-up run each, which must print what redis-cli prints.
[ "$("${cli[@]}" </dev/null)" = OK ] || { echo "redis-cli SET k v did not print OK"; exit 1; }
[ "$("${lab[@]}" </dev/null)" = OK ] || { echo "locklab SET k v did not print OK"; exit 1; }

# (a) whole processes, alternated so both see the same machine state.
: >"$work/pairs"
for ((i = 0; i < pairs; i++)); do
  if ((i % 2 == 0)); then
    t0=$EPOCHREALTIME; "${cli[@]}" </dev/null >/dev/null; t1=$EPOCHREALTIME
    "${lab[@]}" </dev/null >/dev/null; t2=$EPOCHREALTIME
    c=$((${t1/./} - ${t0/./})) l=$((${t2/./} - ${t1/./}))
  else
    t0=$EPOCHREALTIME; "${lab[@]}" </dev/null >/dev/null; t1=$EPOCHREALTIME
    "${cli[@]}" </dev/null >/dev/null; t2=$EPOCHREALTIME
    l=$((${t1/./} - ${t0/./})) c=$((${t2/./} - ${t1/./}))
  fi
  echo "$c $l" >>"$work/pairs"
done

# (b) piped commands.
seq 1 "$piped" | sed 's/.*/SET key:& value-&/' >"$work/cmds.txt"
t0=$EPOCHREALTIME; redis-cli -p "$port" <"$work/cmds.txt" >"$work/cli.out"; t1=$EPOCHREALTIME
"$work/locklab" -p "$port" <"$work/cmds.txt" >"$work/lab.out"; t2=$EPOCHREALTIME
cmp -s "$work/cli.out" "$work/lab.out" || { echo "(b) outputs differ"; exit 1; }
pipe_cli=$((${t1/./} - ${t0/./})) pipe_lab=$((${t2/./} - ${t1/./}))

awk -v max="$max_ratio" -v n="$piped" -v pc="$pipe_cli" -v pl="$pipe_lab" '
  function sort(a, k,   i, j, t) { for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t } }
  function q(a, k, p) { return a[int(p * (k - 1) + 0.5) + 1] }
  function med(a, k) { return k % 2 ? a[(k+1)/2] : (a[k/2] + a[k/2+1]) / 2 }
  { k++; c[k] = $1 / 1000; l[k] = $2 / 1000; r[k] = $2 / $1 }
  END {
    sort(c, k); sort(l, k); sort(r, k)
    printf "(a) one command per process, %d alternated pairs (median, 10th-90th percentile, min-max):\n", k
    printf "    redis-cli %6.2f ms (%.2f-%.2f, %.2f-%.2f)\n", med(c, k), q(c, k, .1), q(c, k, .9), c[1], c[k]
    printf "    locklab   %6.2f ms (%.2f-%.2f, %.2f-%.2f)\n", med(l, k), q(l, k, .1), q(l, k, .9), l[1], l[k]
    ratio = med(r, k)
    printf "    ratio locklab/redis-cli per pair: median %.2fx (%.2f-%.2f, %.2f-%.2f); target <= %.2fx: %s\n",
      ratio, q(r, k, .1), q(r, k, .9), r[1], r[k], max, ratio <= max ? "met" : "MISSED"
    printf "(b) %d piped commands, same output: redis-cli %.2f s, locklab %.2f s; ratio %.2fx (target <= 1.0x)\n", n, pc/1e6, pl/1e6, pl/pc
    exit ratio > max
  }' "$work/pairs"
