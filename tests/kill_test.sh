#!/usr/bin/env bash
# clerk realrun, clerk calibrate and clerk sweep killed with SIGINT, SIGTERM,
# SIGHUP (a closed terminal or SSH session; probe 8, M4) and SIGKILL at
# points drawn at random (issue 19). Afterwards:
#   - no process they started is left (nginx and its workers, clerk-serve,
#     wrk, fio): every process started under this test carries a marker in
#     its environment, and none may be alive once the command is gone;
#   - after SIGINT and SIGTERM no cgroup or run folder of the killed clerk is
#     left; after SIGKILL (which runs no clean-up) the next run removes them;
#   - no output is half-written: the requested file is absent or complete,
#     and no temporary file is left beside it;
#   - the same command, run again, succeeds;
#   - realrun and calibrate stopped by INT, TERM or HUP exit 130 (or 0 when
#     they had just finished): 1 is for figures that miss (probe 8, M5).
# realrun-emulated is realrun with --disk emulated (clerk-disk's FUSE mount
# in the run folder): also no clerk-disk mount may be left. It runs where
# clerk-disk was built beside clerk and /dev/fuse exists.
# Needs root (memory cgroups, drop_caches), nginx, wrk and fio, as CI has;
# exits 77 (skipped) without them. CLERK_KILL_SEED picks other kill points;
# CLERK_KILL_SUBJECTS picks the commands (default: all of them).
set -u
clerk=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

if [ "$(id -u)" != 0 ]; then echo "kill_test: skipped: needs root"; exit 77; fi
for tool in nginx wrk fio; do
  command -v "$tool" >/dev/null || { echo "kill_test: skipped: needs $tool"; exit 77; }
done

RANDOM=${CLERK_KILL_SEED:-19}
port=$((20000 + $$ % 20000))
sweep_spec=$tmp/sweep.toml
cat >"$sweep_spec" <<EOF
[sweep]
scenario = "$src/scenarios/local/blocking.toml"
set = ["duration=2s"]
seeds = 4

[[axis]]
key = "nginx.worker_processes"
values = [1, 2, 3, 4]
EOF

# The command for each subject, writing into $1 (its output folder).
command_for() {  # subject, folder
  case $1 in
    calibrate) echo "$clerk calibrate --quick --out $2/hw.toml" ;;
    realrun) echo "$clerk realrun $src/scenarios/local/blocking.toml --server nginx --repeat 2 --duration 3 --port $port --data $tmp/data --json $2/rr.json" ;;
    realrun-emulated) echo "$clerk realrun $src/testbed/realrun/tests/emulated/blocking.toml --disk emulated --server nginx --repeat 2 --duration 3 --port $port --json $2/rr.json" ;;
    sweep) echo "$clerk sweep $sweep_spec -j 2 -q -o $2/sw" ;;
  esac
}
# State a clerk names after its pid (common/stale_state.h).
state_prefix() {
  case $1 in calibrate) echo clerk-calibrate- ;; realrun*) echo clerk-realrun- ;; *) echo none- ;; esac
}

# Live processes (zombies included) whose environment holds the marker.
marked() {  # marker
  local p
  for p in /proc/[0-9]*; do
    { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qx "CLERK_KILL_MARK=$1" || continue
    echo "${p#/proc/} $(cat "$p/comm" 2>/dev/null) $(awk '{print $3}' "$p/stat" 2>/dev/null)"
  done
}
# Zombies (their environment is gone with their memory, so the marker cannot
# name them): pid and command of every process in state Z.
zombies() {
  local p
  for p in /proc/[0-9]*; do
    [ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" = Z ] && echo "${p#/proc/}:$(cat "$p/comm" 2>/dev/null)"
  done
}
# Cgroups and folders named after `pid`.
state_of() {  # prefix, pid
  ls -d /sys/fs/cgroup/"$1$2" /sys/fs/cgroup/"$1$2"-* /sys/fs/cgroup/memory/"$1$2" /sys/fs/cgroup/memory/"$1$2"-* \
    /tmp/"$1$2" /tmp/"$1$2"-* 2>/dev/null
}

# Complete or absent, and nothing temporary beside it.
check_outputs() {  # what, folder
  local f
  for f in "$2"/*; do
    [ -e "$f" ] || continue
    case $f in
      *.json | *.jsonl) python3 -c 'import json,sys
t = open(sys.argv[1]).read()
if sys.argv[1].endswith(".jsonl"):
    [json.loads(l) for l in t.splitlines() if l.strip()]
    assert t == "" or t.endswith("\n")
else:
    json.loads(t)' "$f" 2>/dev/null || fail "$1: $f is not complete JSON" ;;
      *.toml) python3 -c 'import sys, tomllib; tomllib.load(open(sys.argv[1], "rb"))' "$f" 2>/dev/null ||
        fail "$1: $f is not complete TOML" ;;
      *.csv) [ ! -s "$f" ] || [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || fail "$1: $f ends in a half row" ;;
      *) fail "$1: $f left in the output folder" ;;
    esac
  done
}

run_to_end() {  # what, subject, folder
  mkdir -p "$3"
  # shellcheck disable=SC2046
  CLERK_KILL_MARK=rerun-$$ timeout 900 $(command_for "$2" "$3") >"$3.log" 2>&1 ||
    fail "$1: the run after it failed: $(tail -c 400 "$3.log")"
}

# clerk-disk mounts in the folders of clerk `pid`.
mounts_of() {  # pid
  grep " - fuse.clerk-disk " /proc/self/mountinfo | awk '{print $5}' | grep "^/tmp/clerk-realrun-$1-"
}

subjects="calibrate realrun sweep"
if [ -c /dev/fuse ] && [ -x "$(dirname "$clerk")/../testbed/disk/clerk-disk" ]; then
  subjects="$subjects realrun-emulated"
else
  echo "kill_test: realrun-emulated skipped (no /dev/fuse or no clerk-disk built)"
fi
subjects=${CLERK_KILL_SUBJECTS:-$subjects}  # e.g. CLERK_KILL_SUBJECTS=realrun-emulated: only that one
for subject in $subjects; do
  for sig in INT TERM HUP KILL; do
    what="$subject killed by SIG$sig"
    out=$tmp/$subject-$sig
    mkdir -p "$out"
    r=$RANDOM  # here, not inside $(...): bash reseeds RANDOM in a subshell
    delay=$(awk -v r=$r 'BEGIN { printf "%.1f", 0.5 + r / 32767 * 6 }')
    mark=$subject-$sig-$$
    zombies_before=$(zombies)
    # shellcheck disable=SC2046
    CLERK_KILL_MARK=$mark $(command_for $subject "$out") >"$out.log" 2>&1 &
    pid=$!
    sleep "$delay"
    echo "$what after $delay s"
    kill -"$sig" "$pid" 2>/dev/null
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      fail "$what: still running 30 s later"
      kill -KILL "$pid"
    fi
    wait "$pid" 2>/dev/null
    status=$?
    case $subject:$sig in
      calibrate:KILL | realrun*:KILL | sweep:*) ;;
      *) [ "$status" = 130 ] || [ "$status" = 0 ] || fail "$what: exit status $status, not 130: $(tail -c 300 "$out.log")" ;;
    esac
    sleep 1  # children killed by PR_SET_PDEATHSIG or by the clean-up need a moment to be reaped
    left=$(marked "$mark")
    [ -z "$left" ] || fail "$what: processes left (pid comm state): $(echo $left)"
    # A clerk that is stopped must reap what it started (the fio zombie
    # after Ctrl-C). One killed by SIGKILL cannot: its children, killed by
    # PR_SET_PDEATHSIG, go to init, which reaps them when it will (CI's
    # container init did not within a second): not clerk's to check.
    if [ "$sig" != KILL ]; then
      new_zombies=$(comm -13 <(echo "$zombies_before" | sort) <(zombies | sort) | grep -E ':(fio|nginx|wrk|clerk-serve|clerk|clerk-disk)$')
      [ -z "$new_zombies" ] || fail "$what: zombies left behind: $(echo $new_zombies)"
    fi
    prefix=$(state_prefix $subject)
    if [ "$sig" != KILL ]; then
      state=$(state_of "$prefix" "$pid")
      [ -z "$state" ] || fail "$what: state left: $state"
      m=$(mounts_of "$pid")
      [ -z "$m" ] || fail "$what: clerk-disk mounts left: $m"
    fi
    check_outputs "$what" "$out"
  done
  # A run after the SIGKILL removes what the killed one left, and succeeds.
  run_to_end "$subject after SIGKILL" $subject "$tmp/$subject-rerun"
  state=$(state_of "$(state_prefix $subject)" "$pid")
  [ -z "$state" ] || fail "$subject: the next run left the killed one's state: $state"
  m=$(mounts_of "$pid")
  [ -z "$m" ] || fail "$subject: the next run left the killed one's clerk-disk mounts: $m"
  left=$(marked "rerun-$$")
  [ -z "$left" ] || fail "$subject: processes left by the run after it: $(echo $left)"
done

if [ "$failures" -gt 0 ]; then
  echo "kill_test: $failures failure(s)"
  exit 1
fi
echo "kill_test: every kill left nothing behind"
