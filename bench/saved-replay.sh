#!/usr/bin/env bash
# The saved schedules of the shipped scripts, replayed on a redis-server:
# for each script that explore explores and finds failing, `explore
# --save` writes its shortest failing schedule, and the saved script runs
# RUNS times on the server. A run counts when its verdict lines are the
# ones explore's replay of that schedule gave, word for word but for the
# times on them (+0.300s), and it never gave the order up ("the schedule
# did not replay"). Prints, per script: the runs that counted, the
# verdict's kinds, the runs that gave the order up, and the slowest run.
# Usage: bench/saved-replay.sh [RUNS] [SCRIPT ...]
# EXPLORE_FLAGS are given to explore (a fault's story: EXPLORE_FLAGS=
# '--faults 1 --fault-kinds time --property double-booking'); with
# SERVER=embedded the saved scripts run on locklab's embedded Redis, not
# on the redis-server (a restart's story: --fault-kinds restart).
# Needs bash 5, go, redis-server, redis-cli and python3 (for a free port).
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME with a dot
cd "$(dirname "$0")/.."
runs=${1:-20}
shift || true
scripts=("$@")
[ ${#scripts[@]} -gt 0 ] || scripts=(double-booking ttl-overlap blind-unlock eval-release fencing locks-break locks-fix)
work=$(mktemp -d)
stop_server() {
  [ -s "$work/redis.pid" ] || return 0
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || kill "$(cat "$work/redis.pid")" 2>/dev/null || true
}
trap 'stop_server; rm -rf "$work"' EXIT
go build -o "$work/locklab" .
lab="$work/locklab"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --logfile "$work/redis.log" --pidfile "$work/redis.pid"
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
target=(-p "$port") on="redis-server $(redis-server --version | awk '{print $3}')"
[ "${SERVER:-}" = embedded ] && target=() on="locklab's embedded Redis"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each on $on${EXPLORE_FLAGS:+, explore $EXPLORE_FLAGS}"

# verdict is the verdict lines on stdin (after the gutter of explore's
# replayed run), their times (+0.300s) masked.
verdict() { sed -n 's/^\(.*│ \)\{0,1\}\(verdict: .*\)/\2/p' | sed 's/+[0-9.]*s/+T/g'; }
# kinds are the headlines of those lines (the text before a colon).
kinds() { sed 's/^verdict: \([^:]*\):.*/\1/' | sort -u | paste -sd+; }

for s in "${scripts[@]}"; do
  # shellcheck disable=SC2086 # EXPLORE_FLAGS is words
  "$lab" explore ${EXPLORE_FLAGS:-} --save "$work/$s.lab" "scripts/$s.lab" >"$work/$s.explore" 2>&1 || true
  want=$(sed -n '/^its run, replayed/,$p' "$work/$s.explore" | verdict)
  ok=0 gaveup=0 slowest=0
  for ((i = 0; i < runs; i++)); do
    t0=$EPOCHREALTIME
    "$lab" "${target[@]}" "$work/$s.lab" >"$work/out" 2>"$work/err" || true
    t1=$EPOCHREALTIME
    ms=$(((${t1/./} - ${t0/./}) / 1000))
    ((ms > slowest)) && slowest=$ms
    if grep -q 'did not replay' "$work/err"; then gaveup=$((gaveup + 1)); continue; fi
    [ "$(verdict <"$work/out")" = "$want" ] && ok=$((ok + 1))
  done
  printf "%-16s %2d/%d with explore's verdict (%s), %d gave the order up, slowest run %d ms; %s\n" \
    "$s" "$ok" "$runs" "$(kinds <<<"$want")" "$gaveup" "$slowest" "$(grep -m1 '^shortest' "$work/$s.explore" | cut -d, -f1-2)"
done
