#!/usr/bin/env bash
# The whole test suite on a busy machine: two CPU hogs (busy shell loops)
# run while the README's test command (go test -race ./...) runs RUNS
# times in a row (3), each with -count=1 so that no result comes from
# Go's test cache. Prints each run's pass or fail and wall time, and the
# failing tests of a run that failed (its whole output stays in the log
# folder it names). Exits 1 when any run failed.
#
# The hogs are this script's own children, killed by their PIDs when it
# exits, however it exits (a trap), as is a run still going then;
# nothing else is touched.
#
# Usage: bench/hogs.sh [RUNS]   Needs bash, go; redis-server and the rest
# of what the README's test command needs, as for the suite itself.
# The suite takes about 8 min a run under -race on 2 cores with the hogs.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
logs=$(mktemp -d "${TMPDIR:-/tmp}/locklab-hogs.XXXXXX")

hogs=()
suite=""
stop_hogs() {
  if [ -n "$suite" ]; then
    kill "$suite" 2>/dev/null || true
  fi
  for pid in "${hogs[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${hogs[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  hogs=()
}
trap stop_hogs EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for _ in 1 2; do
  sh -c 'while :; do :; done' &
  hogs+=("$!")
done
echo "hogs: PIDs ${hogs[*]}; load now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
echo "logs: $logs"

failed=0
for i in $(seq "$runs"); do
  log="$logs/run$i.txt"
  start=$(date +%s)
  go test -race -count=1 ./... >"$log" 2>&1 & # waited for below, so a signal's trap runs at once
  suite=$!
  if wait "$suite"; then
    result=PASS
  else
    result=FAIL
    failed=$((failed + 1))
  fi
  suite=""
  end=$(date +%s)
  echo "run $i: $result in $((end - start)) s (load after it: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'))"
  if [ "$result" = FAIL ]; then
    grep -E '^\s*--- FAIL|^FAIL|^panic|timed out' "$log" | sed 's/^/    /' | head -n 40 || true
  fi
done

echo "$((runs - failed)) of $runs runs passed"
[ "$failed" -eq 0 ]
