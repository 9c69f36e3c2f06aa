#!/usr/bin/env bash
# Compares `locklab --pipe` with `redis-cli --pipe` on one real
# redis-server, in one run: N commands of RESP (SET key:i value:i) sent by
# each in alternated pairs (A B, then B A, ...), with a check that both
# print the same bytes; prints each pair's wall time and the median ratio
# (locklab / redis-cli; below 1 means locklab is faster).
# Usage: bench/pipe.sh [COMMANDS] [PAIRS]   (default 1000000 and 5)
# Needs bash 5, go, redis-server, redis-cli and python3.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
n=${1:-1000000}
pairs=${2:-5}
work=$(mktemp -d)
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
go build -o "$work/locklab" .
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --logfile "$work/redis.log"
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
python3 - "$n" >"$work/in.resp" <<'PY'
import sys
out = sys.stdout.buffer
for i in range(int(sys.argv[1])):
    k, v = b"key:%d" % i, b"value:%d" % i
    out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(k), k, len(v), v))
PY
time_one() { # prints wall seconds of "$@" < in.resp, its stdout kept in $work/out.$1
  local tag=$1; shift
  local t0=$EPOCHREALTIME
  "$@" <"$work/in.resp" >"$work/out.$tag" 2>&1
  echo "$EPOCHREALTIME - $t0" | bc -l
}
ratios=()
for i in $(seq "$pairs"); do
  if ((i % 2)); then
    a=$(time_one lab "$work/locklab" -p "$port" --pipe); b=$(time_one cli redis-cli -p "$port" --pipe)
  else
    b=$(time_one cli redis-cli -p "$port" --pipe); a=$(time_one lab "$work/locklab" -p "$port" --pipe)
  fi
  cmp -s "$work/out.lab" "$work/out.cli" || { echo "the outputs differ:"; diff "$work/out.lab" "$work/out.cli"; exit 1; }
  r=$(echo "$a / $b" | bc -l)
  ratios+=("$r")
  printf 'pair %d: locklab %.3fs, redis-cli %.3fs, ratio %.2f\n' "$i" "$a" "$b" "$r"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
printf '%d commands, %d pairs on %s (%d CPUs, load %s): median ratio locklab/redis-cli --pipe %.2f\n' \
  "$n" "$pairs" "$(uname -m)" "$(nproc)" "$(cut -d' ' -f1 /proc/loadavg)" "$median"
