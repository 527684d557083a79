#!/usr/bin/env bash
# Hostile probe 4 (2026-11-28): clerk-replay's schedule and options and
# clerk-disk --model-fio, each finding checked against what it was (each
# section says what).
#   hostile4_test.sh CLERK_REPLAY DATA_DIR [CLERK_DISK|-] [optimized|sanitized]
set -u
replay=$1 data=$2 disk=${3:--} kind=${4:-optimized}
. "$(dirname "$0")/lib.sh"
expect_timeout=20
# The discard port: nothing listens there on a test machine (connections refused).
port=9

# Finding 4: the schedule is a regular file, opened without blocking, read a
# bounded line at a time; a bad line is exit 2 naming the file and the line.
# It was an std::ifstream: a FIFO blocked in open for ever, /dev/zero grew
# without bound, a folder was an empty schedule, a bad line was skipped.
mkfifo "$tmp/fifo"
expect_status 2 "--schedule a FIFO" "$replay" --port $port --schedule "$tmp/fifo" --duration 0.2
expect_text "--schedule a FIFO" "is a FIFO, not a regular file"
expect_status 2 "--schedule /dev/zero" "$replay" --port $port --schedule /dev/zero --duration 0.2
expect_text "--schedule /dev/zero" "is a character device, not a regular file"
mkdir "$tmp/folder"
expect_status 2 "--schedule a folder" "$replay" --port $port --schedule "$tmp/folder" --duration 0.2
expect_text "--schedule a folder" "is a folder, not a regular file"
expect_status 2 "--schedule missing" "$replay" --port $port --schedule "$tmp/none" --duration 0.2
expect_text "--schedule missing" "No such file or directory"
# A line longer than the bound (64 KiB), with no newline: refused, not read whole.
head -c 100000 /dev/zero | tr '\0' 'a' >"$tmp/long"
expect_status 2 "a schedule line of 100,000 bytes" "$replay" --port $port --schedule "$tmp/long" --duration 0.2
expect_text "a schedule line of 100,000 bytes" "line 1: longer than 65536 bytes"
# A bad line after good ones, read ahead mid-run: exit 2 naming it (it was skipped).
printf '0 /a\n0.01 /b\nnot a line\n5 /c\n' >"$tmp/bad2"
expect_status 2 "a schedule's third line with no due time" "$replay" --port $port --schedule "$tmp/bad2" --duration 0.5
expect_text "a schedule's third line with no due time" "bad2', line 3: 'not a line' does not start with a due time"
for line in 'nan /a' '-1 /a' '1e400 /a' '0 a' '0 /a b' $'0 /a\r' '0 ' '0'; do
  printf '%s\n' "$line" >"$tmp/bad1"
  expect_status 2 "the schedule line '$line'" "$replay" --port $port --schedule "$tmp/bad1" --duration 0.2
  expect_text "the schedule line '$line'" "bad1', line 1: "
done
# A good schedule as before: every line due by the end accounted for (exit
# 0), the last line without a newline read too.
printf '0 /a\n0.01 /b\n0.02 /c' >"$tmp/good"
expect_status 0 "a good schedule" "$replay" --port $port --schedule "$tmp/good" --duration 0.3
grep -q ' due=3 ' "$tmp/out" || fail "a good schedule: not 3 lines due: $(tail -1 "$tmp/out")"

# Finding 5: --port and --connections are whole numbers in range (80.7 was port 80).
printf '0 /a\n' >"$tmp/one"
for bad in "--port 80.7" "--port 1e3" "--port 0" "--port 65536" "--port -1" "--port ''" \
           "--connections 1.9" "--connections 0" "--connections 100001" "--connections 0x10"; do
  eval "set -- $bad"
  expect_status 2 "$bad" "$replay" --port $port --connections 1 "$1" "$2" --schedule "$tmp/one" --duration 0.2
  expect_text "$bad" "$1 '$2': not a whole number from 1 to"
done
expect_status 2 "--duration nan" "$replay" --port $port --schedule "$tmp/one" --duration nan
expect_text "--duration nan" "--duration 'nan': not a number of seconds above 0"
expect_status 0 "--port 9 --connections 2" "$replay" --port $port --connections 2 --schedule "$tmp/one" --duration 0.2

if [ "$disk" != - ]; then
  s=$data/small-hdd.toml  # 256 files of 1 MiB
  # Finding 8: a block no file holds is refused before the run (it was zeros, exit 0).
  expect_status 2 "clerk-disk --model-fio --bs 2 MiB of 1 MiB files" "$disk" "$s" --model-fio --bs 2097152 --seconds 1
  expect_text "clerk-disk --model-fio --bs 2 MiB of 1 MiB files" \
    "--bs 2097152: no file of the scenario's data set holds one block of that size (its largest file is 1048576 bytes)"
  [ -s "$tmp/out" ] && fail "clerk-disk --model-fio --bs 2 MiB printed figures: $(cat "$tmp/out")"
  expect_status 0 "clerk-disk --model-fio --bs 1 MiB of 1 MiB files" "$disk" "$s" --model-fio --bs 1048576 --seconds 1
  grep -q '^reads=[1-9]' "$tmp/out" || fail "--bs 1 MiB of 1 MiB files: no read: $(cat "$tmp/out")"

  # Finding 7: 4.7 million reads (a null disk: 1 MiB files, 0 s latency,
  # 10 TB/s) in 64 MB of address space. One double a read kept, then copied
  # to sort, needed 80 MB resident (std::bad_alloc, exit 3, under the limit).
  # The sanitizers reserve terabytes of address space: only the optimized
  # build is bounded.
  if [ "$kind" = optimized ]; then
    awk '/^\[disk\]/ { print; print "type = \"simple\"\ncapacity = \"500g\"\nlatency = \"0s\"\nbandwidth = \"10TB/s\"\n"; skip = 1; next }
         /^\[/ { skip = 0 } !skip' "$s" >"$tmp/null-disk.toml"
    expect_timeout=120
    expect_status 0 "clerk-disk --model-fio of 4.7 million reads in 64 MB" prlimit --as=$((64 << 20)) \
      "$disk" "$tmp/null-disk.toml" --model-fio --bs 4096 --jobs 64 --seconds 0.002
    grep -q '^reads=4740736 ' "$tmp/out" || fail "4.7 million reads: $(cat "$tmp/out")"
  fi
fi
[ "$failures" -eq 0 ] || exit 1
