#!/usr/bin/env bash
# Compares locklab with redis-cli on one real redis-server, in one run:
#  (a) one command as a whole process: `locklab SET k v` vs `redis-cli SET k v`
#  (b) 100,000 commands piped on stdin, with a check that both print the same bytes
# and prints the ratios (locklab / redis-cli; below 1 means locklab is faster).
# Usage: bench/run.sh [PROCESS_RUNS] [PIPED_COMMANDS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-300}
piped=${2:-100000}
work=$(mktemp -d)
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

go build -o "$work/locklab" .
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --logfile "$work/redis.log"
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done

now() { date +%s%N; }

# (a) whole processes, alternated so both see the same machine state.
cli_ns=0; lab_ns=0
for ((i = 0; i < runs; i++)); do
  t0=$(now); redis-cli -p "$port" SET k v >/dev/null; t1=$(now)
  "$work/locklab" -p "$port" SET k v >/dev/null; t2=$(now)
  cli_ns=$((cli_ns + t1 - t0)); lab_ns=$((lab_ns + t2 - t1))
done

# (b) piped commands.
seq 1 "$piped" | sed 's/.*/SET key:& value-&/' >"$work/cmds.txt"
t0=$(now); redis-cli -p "$port" <"$work/cmds.txt" >"$work/cli.out"; t1=$(now)
"$work/locklab" -p "$port" <"$work/cmds.txt" >"$work/lab.out"; t2=$(now)
cmp -s "$work/cli.out" "$work/lab.out" || { echo "outputs differ"; exit 1; }
pipe_cli=$((t1 - t0)); pipe_lab=$((t2 - t1))

awk -v r="$runs" -v c="$cli_ns" -v l="$lab_ns" -v n="$piped" -v pc="$pipe_cli" -v pl="$pipe_lab" 'BEGIN {
  printf "(a) one command per process, %d runs: redis-cli %.2f ms, locklab %.2f ms per run; ratio %.2fx (target <= 1.5x)\n", r, c/r/1e6, l/r/1e6, l/c
  printf "(b) %d piped commands, same output: redis-cli %.2f s, locklab %.2f s; ratio %.2fx (target <= 1.0x)\n", n, pc/1e9, pl/1e9, pl/pc
}'
