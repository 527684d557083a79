#!/usr/bin/env bash
# clerk-disk's mount point (hostile probe 6, findings 5 and 6), on
# tiny-ssd.toml with readahead 1 MiB (the bdi's default is 128 KiB):
#  - spellings: a relative path, "./mnt/", a trailing slash and a symbolic
#    link are resolved once (realpath): the mount is at the folder's own
#    path and is tuned (the bdi's read_ahead_kb is 1024). Each was a
#    "tuning: no FUSE mount at ..." note and a 128 KiB readahead, exit 0;
#  - a live mount at the mount point (another clerk-disk's, reached through
#    the link; a tmpfs) is exit 2 "already a mount point", and left alone:
#    the first clerk-disk keeps running and serving. It used to be detached;
#  - a dead mount (its daemon killed with SIGKILL) is still detached at the
#    next start, named by a relative path;
#  - a missing mount point or a file is exit 2, naming it.
# Every mount and daemon is removed on exit, whatever failed (trap).
# Skipped (77) without root or /dev/fuse.
# Usage: mountpoint_test.sh CLERK_DISK TEST_DIR
set -uo pipefail
bin=$1
dir=$2
[ "$(id -u)" -eq 0 ] || { echo "skip: not root"; exit 77; }
[ -c /dev/fuse ] || { echo "skip: no /dev/fuse"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/clerk-disk-mountpoint.XXXXXX")
work=$(cd "$work" && pwd -P)  # mountinfo's spelling
mnt=$work/mnt
mkdir -p "$mnt"
ln -s mnt "$work/link"
scenario=$dir/tiny-ssd.toml
daemons=()
failures=0

# The mounts at $mnt, bottom first: "TYPE DEVICE" a line.
mounts_at() { awk -v m="$mnt" '$5 == m { for (i = 7; $i != "-"; i++); print $(i + 1), $3 }' /proc/self/mountinfo; }
cleanup() {
  for p in "${daemons[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  for _ in 1 2 3 4; do [ -n "$(mounts_at)" ] && umount -l "$mnt" 2>/dev/null; done
  if [ -n "$(mounts_at)" ]; then
    echo "FAIL: a mount is left at $mnt; $work kept"
    exit 1
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# start SPELLING LOG: a daemon on tiny-ssd.toml (readahead 1 MiB) at
# SPELLING, given from $work; its pid in $daemon. Waits (30 s) for its own
# "mounted" line and a clerk-disk mount on top at $mnt.
start() {
  (cd "$work" && exec "$bin" "$scenario" "$1" --set 'disk.readahead="1m"') >"$2" 2>&1 &
  daemon=$!
  daemons+=("$daemon")
  for _ in $(seq 300); do
    grep -q "^clerk-disk: mounted" "$2" && mounts_at | tail -1 | grep -q "^fuse.clerk-disk " && return 0
    kill -0 "$daemon" 2>/dev/null || break
    sleep 0.1
  done
  sed 's/^/  /' "$2"
  fail "'$1': no mount after 30 s"
  return 1
}

# stop PID: SIGTERM; gone within 10 s.
stop() {
  kill -TERM "$1"
  for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$1" 2>/dev/null && { fail "daemon $1 still running 10 s after SIGTERM"; kill -KILL "$1"; }
  wait "$1" 2>/dev/null
}

# tuned SPELLING LOG: the daemon said it set read_ahead_kb (10 s) and the bdi
# of the mount on top at $mnt holds 1024.
tuned() {
  for _ in $(seq 100); do grep -q "read_ahead_kb\|tuning" "$2" && break; sleep 0.1; done
  local dev kb
  dev=$(mounts_at | tail -1 | awk '{print $2}')
  kb=$(cat "/sys/class/bdi/$dev/read_ahead_kb" 2>/dev/null)
  [ "$kb" = 1024 ] || fail "'$1': the bdi's read_ahead_kb is '$kb', not the scenario's 1024: $(grep -E 'read_ahead|tuning' "$2")"
  grep -q "^clerk-disk: mounted 64 files at $mnt\$" "$2" || fail "'$1': not mounted at $mnt: $(grep mounted "$2")"
}

# --- spellings -------------------------------------------------------------------
for spelling in mnt ./mnt/ "$mnt/" link "$work/link"; do
  log=$work/spelling.log
  start "$spelling" "$log" || continue
  tuned "$spelling" "$log"
  stop "$daemon"
  [ -z "$(mounts_at)" ] || fail "'$spelling': still mounted after the daemon stopped"
done

# --- a live mount is left alone ---------------------------------------------------
if start "$mnt" "$work/a.log"; then
  first=$daemon
  before=$(mounts_at)
  # The same spelling (the probe's case: the first was detached and ended,
  # exit 0) and another (it was mounted on top).
  for second in "$mnt" "$work/link"; do
    timeout 30 "$bin" "$scenario" "$second" >"$work/b.log" 2>&1
    rc=$?
    [ $rc -eq 2 ] || fail "a second clerk-disk on a live mount ($second): exit $rc, expected 2"
    grep -q "$mnt is already a mount point (fuse.clerk-disk, live): unmount it first" "$work/b.log" ||
      fail "a second clerk-disk on a live mount ($second): $(cat "$work/b.log")"
    kill -0 "$first" 2>/dev/null || fail "the first clerk-disk ended when a second started ($second): $(tail -3 "$work/a.log")"
    [ "$(mounts_at)" = "$before" ] || fail "the mounts at $mnt changed ($second): '$before' became '$(mounts_at)'"
  done
  timeout 10 stat -f "$mnt" >/dev/null || fail "the first clerk-disk's mount no longer answers"
  timeout 20 "$bin" "$scenario" "$mnt" --verify --files 1 >/dev/null 2>&1 || fail "the first mount's content differs"
  stop "$first"
fi
# Any other live mount likewise (a tmpfs: no FUSE).
if mount -t tmpfs -o size=1m clerk-test "$mnt"; then
  (cd "$work" && timeout 30 "$bin" "$scenario" mnt) >"$work/b.log" 2>&1
  rc=$?
  [ $rc -eq 2 ] || fail "clerk-disk on a tmpfs mount point: exit $rc, expected 2"
  grep -q "(tmpfs, live): unmount it first" "$work/b.log" || fail "clerk-disk on a tmpfs: $(cat "$work/b.log")"
  [ "$(mounts_at | awk '{print $1}')" = tmpfs ] || fail "the tmpfs at $mnt is gone or covered: '$(mounts_at)'"
  umount "$mnt" || fail "cannot unmount the test's tmpfs"
else
  fail "cannot mount a tmpfs at $mnt"
fi

# --- a dead mount is detached ------------------------------------------------------
if start "$mnt" "$work/a.log"; then
  kill -KILL "$daemon"
  wait "$daemon" 2>/dev/null
  stat -f "$mnt" >/dev/null 2>&1 && fail "the mount still answers after its daemon was killed"
  if start mnt "$work/c.log"; then
    grep -q "stale FUSE mount .* at $mnt: detaching it" "$work/c.log" || fail "the dead mount was not reported: $(cat "$work/c.log")"
    tuned "mnt after a dead mount" "$work/c.log"
    [ "$(mounts_at | wc -l)" = 1 ] || fail "the dead mount was not detached: '$(mounts_at)'"
    stop "$daemon"
  fi
fi

# --- not a directory ----------------------------------------------------------------
touch "$work/file"
for bad in "$work/none" file; do
  err=$(cd "$work" && timeout 60 "$bin" "$scenario" "$bad" 2>&1)
  rc=$?
  [ $rc -eq 2 ] || fail "mount point '$bad': exit $rc, expected 2"
  echo "$err" | grep -q "the mount point '$bad'" || fail "mount point '$bad' not named: $err"
done

[ -z "$(mounts_at)" ] || fail "a mount is left at $mnt: $(mounts_at)"
[ $failures -eq 0 ] && echo "mountpoint_test: all passed"
exit $((failures > 0))
