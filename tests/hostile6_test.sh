#!/usr/bin/env bash
# Hostile probe 6 (2026-11-29): each finding fixed, checked against what it
# was (each section says what).
#   hostile6_test.sh CLERK DATA_DIR CLERK_DISK|- CLERK_REPLAY CLERK_SERVE
set -u
clerk=$1 data=$2 disk=${3:--} replay=$4 serve=$5
. "$(dirname "$0")/lib.sh"
expect_timeout=120
cp "$data/small-hdd.toml" "$tmp/"
s=$tmp/small-hdd.toml  # 256 files of 1 MiB on a 500 GB disk; groups "random" and "hot"

# A raw C0 control or DEL in a command's output, line breaks and tabs aside.
expect_no_control() {  # description, file
  if grep -qP '[\x00-\x08\x0b-\x1f\x7f]' "$2"; then
    fail "$1: a raw control byte in: $(grep -naP '[\x00-\x08\x0b-\x1f\x7f]' "$2" | head -3 | cat -v)"
  fi
}

# Finding 3: more files and directories than ext4 has inodes (it was exit 3,
# "out of inodes", from the layout, after seconds and gigabytes). A 1 GiB
# disk has 8 block groups of 8,192 inodes, 11 of them reserved.
inodes() {  # files tree: the --set options of a 1 GiB disk of one-byte files, into $sets
  sets=(--set 'disk.capacity="1g"' --set 'dataset.file_size="1"' --set "dataset.files=$1" --set "dataset.tree=$2"
        --set 'clients.hot.path="/1"')
}
inodes 65526 '[65526]'
expect_status 2 "run with one inode too many" "$clerk" run "$s" --duration 0.01 -q --no-timing "${sets[@]}"
expect_message "run with one inode too many" "key 'dataset.files': the data set needs 65537 inodes \(65526 files, 0 directories"
inodes 65523 '[3,21841]'
expect_status 2 "run with the directories one inode too many" "$clerk" run "$s" --duration 0.01 -q --no-timing "${sets[@]}"
expect_text "run with the directories one inode too many" "65523 files, 3 directories"
# Every inode used: the layout is built and the run ends.
inodes 65525 '[65525]'
expect_status 0 "run with every inode used" "$clerk" run "$s" --duration 0.01 -q --no-timing "${sets[@]}"
if [ "$disk" != - ]; then
  inodes 65526 '[65526]'
  expect_status 2 "clerk-disk with one inode too many" "$disk" "$s" --model-fio --seconds 0.01 "${sets[@]}"
  expect_text "clerk-disk with one inode too many" "key 'dataset.files': the data set needs 65537 inodes"
fi

# Finding 8: clerk validate and clerk compare print scenario text escaped
# (an expectation's note and known_miss, a relative_to file's name, a
# group's name, a scenario's path as its name); a note keeps its line
# breaks and tabs. Each printed a raw ESC, OSC or BEL.
other="$tmp/h"$'\x1b'"[31mx.toml"
printf 'include = "small-hdd.toml"\nduration = "0.1s"\n' >"$other"
cat >"$tmp/v.toml" <<'EOF'
include = "small-hdd.toml"
duration = "0.1s"

[[expect]]
metric = "clients.hot.requests_per_s"
documented = 100
min = 0
note = "n\u001b[31m\u0007 first line\n\tsecond line"

[[expect]]
metric = "clients.hot.requests_per_s"
max = 0
known_miss = "k\u001b]0;TITLE\u0007x"
note = "second\u001b[2J"

[[expect]]
metric = "clients.hot.requests_per_s"
relative_to = "h\u001b[31mx.toml"
min = 0
EOF
expect_status 0 "validate with controls in its texts" "$clerk" validate "$tmp/v.toml"
expect_no_control "validate's report" "$tmp/out"
expect_no_control "validate's errors" "$tmp/err"
for shown in 'documented: n\x1b[31m\x07 first line' $'\tsecond line' 'known miss: k\x1b]0;TITLE\x07x' \
             'documented: second\x1b[2J' 'clients.hot.requests_per_s / h\x1b[31mx'; do
  grep -qF -- "$shown" "$tmp/out" || fail "validate: no '$shown' in: $(cat -A "$tmp/out" | head -20)"
done

named="$tmp/e"$'\x1b]0;OWNED\x07'".toml"
printf 'include = "small-hdd.toml"\n[clients."h\\u001b[31mot"]\nthreads = 1\nconnections = 1\npath = "/1/1"\n' >"$named"
expect_status 0 "compare with controls in a name and a group" "$clerk" compare "$named" "$s" --duration 0.05
expect_no_control "compare's table" "$tmp/out"
expect_no_control "compare's errors" "$tmp/err"
for shown in 'h\x1b[31mot: requests/s' 'e\x1b]0;OWNED\x07.toml'; do
  grep -qF -- "$shown" "$tmp/out" || fail "compare: no '$shown' in: $(cat -A "$tmp/out" | head -20)"
done

# Finding 9 (minors).
# A NUL in an include's name is refused, naming the key (it loaded the
# name cut at the NUL); dataset.root refuses control characters, as a name.
printf 'include = ["small-hdd.toml\\u0000x"]\n' >"$tmp/nul.toml"
expect_status 2 "an include with a NUL" "$clerk" run "$tmp/nul.toml" --duration 0.01 -q --no-timing
expect_message "an include with a NUL" "nul.toml:1: key 'include': 'small-hdd.toml\\\\0x' holds a NUL character \(at 15\)"
for root in '/srv\n[x]' '/srv\u0000x' '/srv\u001b[31m'; do
  expect_status 2 "dataset.root $root" "$clerk" run "$s" --duration 0.01 -q --no-timing --set "dataset.root=\"$root\""
  expect_text "dataset.root $root" "key 'dataset.root': holds a control character"
done
expect_status 0 "dataset.root a path" "$clerk" run "$s" --duration 0.01 -q --no-timing --set 'dataset.root="/srv/www"'

# Numbers are decimal and all of the text, as --seed's (strtod took
# 0x1p-4 as 0.0625 s).
for d in 0x1p-4 0x10 '' 1e400; do
  expect_status 2 "run --duration '$d'" "$clerk" run "$s" --duration "$d" -q --no-timing
  expect_text "run --duration '$d'" "--duration: must be a number of seconds"
done
expect_status 2 "new --rate 0x10" "$clerk" new "$tmp/rate.toml" --rate 0x10
expect_text "new --rate 0x10" "--rate: must be a number from 0 to"
[ -e "$tmp/rate.toml" ] && fail "new --rate 0x10 wrote a file"

# clerk-replay --help and -h: the usage on standard output, exit 0 (it was
# "missing value after --help", exit 2); its seconds are decimal too.
for h in --help -h; do
  expect_status 0 "clerk-replay $h" "$replay" "$h"
  grep -q "^usage: clerk-replay --port P" "$tmp/out" || fail "clerk-replay $h: no usage: $(head -3 "$tmp/out")"
  grep -q -- "--schedule FILE" "$tmp/out" || fail "clerk-replay $h: no --schedule: $(head -3 "$tmp/out")"
done
printf '0 /a\n' >"$tmp/one"
for bad in "--duration 0x10" "--timeout 0x1p-4" "--duration ''"; do
  eval "set -- $bad"
  expect_status 2 "clerk-replay $bad" "$replay" --port 9 --schedule "$tmp/one" "$1" "$2"
  expect_text "clerk-replay $bad" "$1 '$2': not a number of seconds above 0"
done

# clerk-serve: --pid-file and --port-file one file, by any spelling, is a
# bad command line before anything is bound (it started, one number lost).
mkdir "$tmp/root"
expect_timeout=10
for second in "$tmp/pf" "$tmp/./pf" "$tmp/../$(basename "$tmp")/pf"; do
  expect_status 2 "clerk-serve --pid-file pf --port-file $second" \
    "$serve" --root "$tmp/root" --listen 127.0.0.1:0 --pid-file "$tmp/pf" --port-file "$second"
  expect_text "clerk-serve --pid-file pf --port-file $second" "is the same file as --pid-file"
  [ -e "$tmp/pf" ] && fail "clerk-serve one file twice left $tmp/pf"
done
[ "$failures" -eq 0 ] || exit 1
