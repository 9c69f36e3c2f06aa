#!/usr/bin/env bash
# Background jobs under attack (issue 11, item 7), measured in two runs:
#  (a) the fork bomb   locklab -c 'f(){ f & f; }; f'
#  (b) a full house    9,999 jobs sleeping 60 s, then `wait`
# Each runs for AFTER seconds (5), then gets SIGINT (Ctrl-C); the script
# reports how long it took to stop after the SIGINT (or that it stopped by
# itself first, and when) and its peak RSS (the kernel's VmHWM, read from
# /proc every 20 ms). It exits 1 when a stop took more than 1 s or a peak
# passed 1 GB (MAX_STOP=S, MAX_RSS_MB=M to change them).
# Bounded: HARD seconds (10) after the SIGINT, a run is SIGKILLed.
# Usage: bench/forkbomb.sh   Needs bash 5, go, awk and Linux's /proc.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME with a dot
cd "$(dirname "$0")/.."
after=${AFTER:-5}
hard=${HARD:-10}
max_stop=${MAX_STOP:-1}
max_rss_mb=${MAX_RSS_MB:-1024}
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# alive says whether locklab ($pid) still runs (a zombie has ended), and
# keeps the highest VmHWM seen in peak_kb.
alive() {
  local status
  status=$(cat "/proc/$pid/status" 2>/dev/null) || return 1
  [[ $status =~ State:[[:space:]]+Z ]] && return 1
  if [[ $status =~ VmHWM:[[:space:]]+([0-9]+) ]] && ((BASH_REMATCH[1] > peak_kb)); then
    peak_kb=${BASH_REMATCH[1]}
  fi
  return 0
}

# since T S: whether S seconds have passed since the time T.
since() { awk -v n="$EPOCHREALTIME" -v t="$1" -v s="$2" 'BEGIN { exit !(n - t >= s) }'; }

# watch: SIGINT after $after s, SIGKILL $hard s later; sets start, sent,
# end, killed and peak_kb.
watch() {
  start=$EPOCHREALTIME sent= killed= peak_kb=0
  while alive; do
    if [ -z "$sent" ] && since "$start" "$after"; then
      kill -INT "$pid"
      sent=$EPOCHREALTIME
    elif [ -n "$sent" ] && [ -z "$killed" ] && since "$sent" "$hard"; then
      kill -KILL "$pid"
      killed=yes
    fi
    sleep 0.02
  done
  end=$EPOCHREALTIME
}

failed=0
# measure NAME LINE runs `locklab -c LINE` and reports.
measure() {
  echo "== $1: locklab -c '$2'"
  # A background job of a non-interactive bash starts with SIGINT
  # ignored, and locklab keeps it so: start it from a job-control shell.
  set -m
  "$work/locklab" -c "$2" >/dev/null 2>"$work/stderr" &
  pid=$!
  set +m
  watch
  local status=0
  { wait "$pid"; } 2>/dev/null || status=$? # no "Killed" line from bash
  pid=
  report "$status"
}

report() {
  local peak_mb=$((peak_kb / 1024)) stop=0
  echo "stderr: $(wc -l <"$work/stderr") lines; first: $(head -n 1 "$work/stderr")"
  echo "exit status $1; peak RSS ${peak_mb} MB"
  if [ -n "$killed" ]; then
    echo "FAIL: still running ${hard}s after SIGINT: SIGKILLed"
    failed=1
    return
  elif [ -z "$sent" ]; then
    awk -v e="$end" -v s="$start" 'BEGIN { printf "stopped by itself after %.2fs, before the SIGINT\n", e - s }'
  else
    stop=$(awk -v e="$end" -v s="$sent" 'BEGIN { printf "%.2f", e - s }')
    echo "stopped ${stop}s after SIGINT (sent at ${after}s)"
  fi
  if awk -v t="$stop" -v m="$max_stop" 'BEGIN { exit !(t > m) }' || ((peak_mb > max_rss_mb)); then
    echo "FAIL: want a stop within ${max_stop}s and a peak under ${max_rss_mb} MB"
    failed=1
  fi
}

go build -o "$work/locklab" .
measure "fork bomb" 'f(){ f & f; }; f'
measure "9,999 sleeping jobs" 'i=0; while [ $i -lt 9999 ]; do sleep 60 & i=$((i+1)); done; wait'
exit "$failed"
