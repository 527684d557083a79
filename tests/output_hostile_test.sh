#!/usr/bin/env bash
# Result files of clerk run and clerk validate given hostile targets (issue 21,
# finding 2; finding 7 for plot): FIFOs and character devices written
# directly and never replaced, links to regular files refused, links planted
# at predictable temporary names never followed, a folder or "dir/" refused,
# fsync before the rename, a read-only folder refused before any run.
# Each check says what it keeps closed.
set -u
clerk=$1 data=$2
. "$(dirname "$0")/lib.sh"
expect_timeout=60
skip() { echo "cli_output_hostile: skipped: $*"; }

s=$data/small-hdd.toml
v=$data/expect-known-miss.toml  # validate passes it (exit 0) in about a second
run=("$clerk" run "$s" --duration 1 -q --no-timing --json)
validate=("$clerk" validate "$v" --json)

# The report on standard output lost (a full disk, a closed stdout) is an
# error, not exit 0.
expect_status 2 "run with its report onto /dev/full" bash -c '"$0" run "$1" --duration 1 --no-timing >/dev/full' "$clerk" "$s"
expect_text "run with its report onto /dev/full" "cannot write the report to standard output"
expect_status 2 "--help onto /dev/full" bash -c '"$0" --help >/dev/full' "$clerk"
expect_status 2 "run --help onto /dev/full" bash -c '"$0" run --help >/dev/full' "$clerk"
expect_status 2 "run with stdout closed" bash -c '"$0" run "$1" --duration 1 --no-timing >&-' "$clerk" "$s"
expect_status 0 "run -q with stdout closed (nothing to write)" bash -c '"$0" run "$1" --duration 1 -q >&-' "$clerk" "$s"

# A reader of the report that has gone (clerk keys | head -1): clerk ends
# quietly, as ls | head does (SIGPIPE's default: exit 141, or 0 when all was
# written first), with no message and no crash, and every file it was asked
# for is written before the report (whatif wrote its table first and lost
# its figure and JSON). The reader is closed before clerk starts, so the
# first write meets it.
closed_pipe() {  # command...: stdout on a pipe whose reader is gone, stderr in $tmp/err; prints the exit status
  python3 -c 'import os,subprocess,sys
r, w = os.pipe(); os.close(r)
with open(sys.argv[1], "wb") as err:
    s = subprocess.call(sys.argv[2:], stdout=w, stderr=err)
print(128 - s if s < 0 else s)' "$tmp/err" timeout 60 "$@"
}
mkdir -p "$tmp/gone"
for cmd in "keys" "keys --help" "run $s --duration 1 --json $tmp/gone/run.json" "validate $v --json $tmp/gone/val.json" \
  "sweep $s --set duration=1 --seeds 2 -j 1 -o $tmp/gone/sw" "gen-log -o - --duration 60s"; do
  # shellcheck disable=SC2086
  got=$(closed_pipe "$clerk" $cmd)
  case $got in 0 | 141) ;; *) fail "$cmd onto a pipe whose reader is gone: exit $got, wanted 141 or 0" ;; esac
  ! grep -Eqi "cannot write|broken pipe|error|sanitizer|abort" "$tmp/err" || fail "$cmd onto a gone reader says: $(head -c 300 "$tmp/err")"
done
for f in run.json val.json sw.csv sw.summary.csv; do
  [ -s "$tmp/gone/$f" ] || fail "a reader gone: $f not written"
done
if command -v gnuplot >/dev/null; then
  got=$(closed_pipe "$clerk" whatif "$s" --threads 1,2 --duration 1 --figure "$tmp/gone/w" --json "$tmp/gone/w.json")
  case $got in 0 | 141) ;; *) fail "whatif onto a gone reader: exit $got: $(head -c 300 "$tmp/err")" ;; esac
  for f in w.png w.svg w.json; do
    [ -s "$tmp/gone/$f" ] || fail "whatif onto a gone reader: $f not written"
  done
fi

# validate that validates nothing is no pass.
expect_status 2 "validate of a file with no [[expect]]" "$clerk" validate "$s"
expect_text "validate of a file with no [[expect]]" "no documented figures"
mkdir -p "$tmp/no-expect"
cp "$s" "$tmp/no-expect/"
expect_status 2 "validate --scenarios of a folder with no [[expect]]" "$clerk" validate --scenarios "$tmp/no-expect"

for cmd in run validate; do
  if [ $cmd = run ]; then args=("${run[@]}"); else args=("${validate[@]}"); fi
  d=$tmp/$cmd
  mkdir -p "$d"

  # A FIFO: written directly (its reader gets the JSON), never replaced by a regular file.
  mkfifo "$d/pipe.json"
  timeout 60 cat "$d/pipe.json" >"$d/from-pipe" &
  reader=$!
  expect_status 0 "$cmd --json onto a FIFO" "${args[@]}" "$d/pipe.json"
  [ -p "$d/pipe.json" ] || fail "$cmd --json replaced the FIFO"
  if [ -p "$d/pipe.json" ]; then : <>"$d/pipe.json"; fi  # releases a reader that got nothing
  wait "$reader"
  grep -q '"clients"\|"metric"\|"scenario"' "$d/from-pipe" || fail "$cmd --json: the FIFO's reader got '$(head -c 200 "$d/from-pipe")'"

  # A character device: our own /dev/null when we may make one (as root a
  # wrong clerk would replace the real one), else /dev/null itself.
  null=/dev/null
  mknod "$d/null" c 1 3 2>/dev/null && null=$d/null
  expect_status 0 "$cmd --json onto a character device" "${args[@]}" "$null"
  [ -c "$null" ] || fail "$cmd --json replaced the character device $null"

  # /dev/stdout is a link to a pipe here: written through.
  timeout 60 "${args[@]}" /dev/stdout 2>"$tmp/err" | cat >"$d/stdout.json"
  [ "${PIPESTATUS[0]}" -eq 0 ] || fail "$cmd --json /dev/stdout onto a pipe: $(head -c 300 "$tmp/err")"
  [ -s "$d/stdout.json" ] || fail "$cmd --json /dev/stdout wrote nothing to the pipe"

  # A link to a regular file at the target: refused, before any run; the
  # file it leads to and the link are left as they were.
  echo "keep me" >"$d/victim"
  ln -s "$d/victim" "$d/link.json"
  expect_status 2 "$cmd --json onto a link to a regular file" "${args[@]}" "$d/link.json"
  expect_text "$cmd --json onto a link to a regular file" "symbolic link"
  [ "$(cat "$d/victim")" = "keep me" ] && [ -L "$d/link.json" ] || fail "$cmd --json wrote through or replaced a link"
  ! grep -q "simulated in" "$tmp/out" || fail "$cmd ran before refusing its --json link"

  # A dangling link (it would create the file wherever the link points).
  ln -s "$d/nowhere/x" "$d/dangling.json"
  expect_status 2 "$cmd --json onto a dangling link" "${args[@]}" "$d/dangling.json"
  [ ! -e "$d/nowhere" ] || fail "$cmd --json created the target of a dangling link"

  # Links planted at the names a naive writer uses for its temporary file:
  # never followed; the result is a regular file; no temporary left behind.
  for planted in "$d/out.json.tmp" "$d/.out.json.tmp" "$d/out.json~" "$d/.out.json.swp"; do
    ln -s "$d/victim" "$planted"
  done
  expect_status 0 "$cmd --json with links planted at temporary names" "${args[@]}" "$d/out.json"
  [ "$(cat "$d/victim")" = "keep me" ] || fail "$cmd --json followed a link planted at a temporary name"
  [ -f "$d/out.json" ] && [ ! -L "$d/out.json" ] && [ -s "$d/out.json" ] || fail "$cmd --json: no regular result file"
  leftovers=$(cd "$d" && ls -A | grep -v -x -e pipe.json -e from-pipe -e null -e stdout.json -e victim -e link.json \
    -e dangling.json -e sock.json -e out.json -e out.json.tmp -e .out.json.tmp -e 'out.json~' -e .out.json.swp)
  [ -z "$leftovers" ] || fail "$cmd --json left $leftovers"

  # A socket cannot be opened: refused before the run, not after it.
  python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('$d/sock.json')"
  expect_status 2 "$cmd --json onto a socket" "${args[@]}" "$d/sock.json"
  expect_text "$cmd --json onto a socket" "is a socket"
  ! grep -q "simulated in" "$tmp/out" || fail "$cmd ran before refusing its --json socket"
  # An empty name was taken as no --json at all.
  expect_status 2 "$cmd --json ''" "${args[@]}" ""

  # A folder, or a name ending in '/'.
  mkdir "$d/folder.json"
  expect_status 2 "$cmd --json onto a folder" "${args[@]}" "$d/folder.json"
  expect_status 2 "$cmd --json dir/" "${args[@]}" "$d/"
  expect_text "$cmd --json dir/" "names a folder"
done

# import -o, gen-log -o and new (probe finding 1): the same writer's rules.
# FIFOs and character devices written directly, links to regular files
# refused, a new file's mode the umask's (not mkstemp's 0600).
conf=$data/import/static/nginx.conf
gl=("$clerk" gen-log --files 10)
d=$tmp/writers
mkdir -p "$d"
for cmd in import gen-log; do
  if [ $cmd = import ]; then w=("$clerk" import "$conf" -o); else w=("${gl[@]}" --duration 2s --rate 10 -o); fi
  mkfifo "$d/$cmd.fifo"
  timeout 60 cat "$d/$cmd.fifo" >"$d/$cmd.from-fifo" &
  reader=$!
  expect_status 0 "$cmd -o onto a FIFO" "${w[@]}" "$d/$cmd.fifo"
  [ -p "$d/$cmd.fifo" ] || fail "$cmd -o replaced the FIFO"
  if [ -p "$d/$cmd.fifo" ]; then : <>"$d/$cmd.fifo"; fi
  wait "$reader"
  [ -s "$d/$cmd.from-fifo" ] || fail "$cmd -o: the FIFO's reader got nothing"
  null=/dev/null
  mknod "$d/$cmd.null" c 1 3 2>/dev/null && null=$d/$cmd.null
  expect_status 0 "$cmd -o onto a character device" "${w[@]}" "$null"
  [ -c "$null" ] || fail "$cmd -o replaced the character device $null"
  echo "keep me" >"$d/$cmd.victim"
  ln -s "$d/$cmd.victim" "$d/$cmd.link"
  expect_status 2 "$cmd -o onto a link to a regular file" "${w[@]}" "$d/$cmd.link"
  expect_text "$cmd -o onto a link to a regular file" "symbolic link"
  [ "$(cat "$d/$cmd.victim")" = "keep me" ] && [ -L "$d/$cmd.link" ] || fail "$cmd -o wrote through or replaced a link"
  (umask 022 && "${w[@]}" "$d/$cmd.out" >/dev/null 2>&1) || fail "$cmd -o onto a new name failed"
  [ "$(stat -c %a "$d/$cmd.out" 2>/dev/null)" = 644 ] || fail "$cmd -o: mode $(stat -c %a "$d/$cmd.out" 2>/dev/null), wanted 644 (umask 022)"
done
(cd "$d" && umask 027 && "$clerk" new "$d/new.toml" >/dev/null 2>&1) || fail "new failed"
[ "$(stat -c %a "$d/new.toml" 2>/dev/null)" = 640 ] || fail "new: mode $(stat -c %a "$d/new.toml" 2>/dev/null), wanted 640 (umask 027)"
[ -z "$(cd "$d" && ls -A | grep -e '^\.' -e XXXXXX)" ] || fail "writers left temporaries: $(cd "$d" && ls -A | grep -e '^\.')"

# clerk new --hardware (probe finding 17): its text stays one TOML string.
expect_status 2 "new --hardware with a quote and a newline" "$clerk" new "$d/hw.toml" --hardware $'local"\ndescription="x"\n#'
! grep -q '^description="x"' "$d/hw.toml" 2>/dev/null || fail "new --hardware added a key of its own"

# gen-log (probe finding 8): a log too large refused up front; a failed
# write stops it at once; a signal leaves no temporary.
expect_status 2 "gen-log of 1e11 lines" "${gl[@]}" --duration 100000s --rate 1e6 -o "$d/huge.log"
expect_text "gen-log of 1e11 lines" "at most 1e+08"
[ ! -e "$d/huge.log" ] || fail "gen-log wrote a log it refused"
expect_status 2 "gen-log onto /dev/full" "${gl[@]}" --duration 600s --rate 1e5 -o /dev/full
expect_text "gen-log onto /dev/full" "No space left"
expect_status 2 "gen-log - onto /dev/full" bash -c '"$0" gen-log --duration 600s --rate 1e5 -o - >/dev/full' "$clerk"
# (env --default-signal: a background job of a script starts with SIGINT ignored.)
for sig in INT TERM; do
  env --default-signal=INT "$clerk" gen-log --duration 600s --rate 1e5 -o "$d/big-$sig.log" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do ls -A "$d" | grep -q "big-$sig.log." && break; sleep 0.05; done
  kill -s $sig $pid
  wait $pid
  st=$?
  [ $st -gt 128 ] || fail "gen-log after SIG$sig: exit $st, wanted death by the signal"
  [ -z "$(ls -A "$d" | grep "big-$sig")" ] || fail "gen-log after SIG$sig left $(ls -A "$d" | grep "big-$sig")"
done

# An output that is an input (probe finding 2): refused before anything
# runs, exit 2, naming both; the input left as it was.
cp "$s" "$d/in.toml"
cp "$conf" "$d/in.conf"
sum() { md5sum <"$1"; }
before=$(sum "$d/in.toml")
expect_status 2 "run --json onto its scenario" "$clerk" run "$d/in.toml" --duration 1 -q --json "$d/in.toml"
expect_text "run --json onto its scenario" "is the same file as the input"
ln "$d/in.toml" "$d/hard.json"
expect_status 2 "run --json onto a hard link of its scenario" "$clerk" run "$d/in.toml" --duration 1 -q --json "$d/hard.json"
expect_status 2 "validate --json onto its scenario" "$clerk" validate "$d/in.toml" --json "$d/in.toml"
mkdir -p "$d/found" && cp "$v" "$d/found/v.toml" && cp "$s" "$d/found/small-hdd.toml"
expect_status 2 "validate --json onto a scenario it finds" "$clerk" validate --scenarios "$d/found" --json "$d/found/v.toml"
cmp -s "$v" "$d/found/v.toml" || fail "validate --json overwrote a scenario it found"
expect_status 2 "compare --json onto a scenario" "$clerk" compare "$s" "$d/in.toml" --duration 1 --json "$d/in.toml"
mkdir -p "$d/tr"
cp "$data/trace/replay.toml" "$data/trace/combined.log" "$d/tr/"
cp "$s" "$d/small-hdd.toml"
cp "$data/trace/combined.log" "$d/combined.copy"
expect_status 2 "run --json onto the access log it replays" "$clerk" run "$d/tr/replay.toml" --duration 1 -q --json "$d/tr/combined.log"
expect_text "run --json onto the access log it replays" "is the same file as the input"
cmp -s "$d/tr/combined.log" "$d/combined.copy" || fail "run --json overwrote the access log it replays"
expect_status 2 "whatif --json onto its scenario" "$clerk" whatif "$d/in.toml" --threads --no-figure --json "$d/in.toml"
expect_text "whatif --json onto its scenario" "is the same file as the input"
cp "$s" "$d/sw.jsonl"
expect_status 2 "sweep -o whose .jsonl is its scenario" "$clerk" sweep "$d/sw.jsonl" --set nginx.worker_processes=1,2 -o "$d/sw.csv"
expect_text "sweep -o whose .jsonl is its scenario" "is the same file as the input"
[ "$(sum "$d/in.toml")" = "$before" ] && cmp -s "$s" "$d/sw.jsonl" || fail "an output overwrote its input scenario"
printf 'sweep,run,point,x,seed,m\nabc,0,0,0,1,0.5\n' >"$d/r.png"  # a results table under the name the figure would take
expect_status 2 "plot -o onto its results file" "$clerk" plot "$d/r.png" --x x --y m -o "$d/r"
expect_text "plot -o onto its results file" "is the same file as the input"
before=$(sum "$d/in.conf")
expect_status 2 "import -o onto its nginx.conf" "$clerk" import "$d/in.conf" -o "$d/in.conf"
expect_text "import -o onto its nginx.conf" "is the same file as the input"
[ "$(sum "$d/in.conf")" = "$before" ] || fail "import overwrote its nginx.conf"
mkdir -p "$d/inc"
printf 'events {}\nhttp { include inc/more.conf; }\n' >"$d/inc.conf"
printf 'sendfile on;\n' >"$d/inc/more.conf"
expect_status 0 "import of a conf with an include" "$clerk" import "$d/inc.conf" -o "$d/inc-out.toml"
expect_status 2 "import -o onto its included file" "$clerk" import "$d/inc.conf" -o "$d/inc/more.conf"
[ "$(cat "$d/inc/more.conf")" = "sendfile on;" ] || fail "import overwrote its included file"

# An output that is a file the scenario only includes (issue 19: run --json
# overwrote it): the loader lists every file it read, and each command that
# refuses its inputs refuses them all, naming the included file.
mkdir -p "$d/layers/hw"
cp "$s" "$d/layers/hw/small-hdd.toml"
printf 'include = "common.toml"\n' >"$d/layers/s.toml"
printf 'include = "hw/small-hdd.toml"\n' >"$d/layers/common.toml"
cp "$v" "$d/layers/v.toml"
sed -i 's|^include = .*|include = "common.toml"|' "$d/layers/v.toml"
before=$(sum "$d/layers/common.toml")
hw_before=$(sum "$d/layers/hw/small-hdd.toml")
expect_status 2 "run --json onto an included file" "$clerk" run "$d/layers/s.toml" --duration 0.01 -q --json "$d/layers/common.toml"
expect_text "run --json onto an included file" "is the same file as the input '$d/layers/common.toml'"
expect_status 2 "run --json onto a file an included file includes" "$clerk" run "$d/layers/s.toml" --duration 0.01 -q --json "$d/layers/hw/small-hdd.toml"
expect_status 2 "compare --json onto an included file" "$clerk" compare "$s" "$d/layers/s.toml" --duration 0.01 --json "$d/layers/common.toml"
expect_status 2 "validate --json onto an included file" "$clerk" validate "$d/layers/v.toml" --json "$d/layers/common.toml"
expect_status 2 "whatif --json onto an included file" "$clerk" whatif "$d/layers/s.toml" --threads --no-figure --json "$d/layers/common.toml"
expect_text "whatif --json onto an included file" "is the same file as the input '$d/layers/common.toml'"
cp "$d/layers/common.toml" "$d/layers/common.jsonl" && printf 'include = "common.jsonl"\n' >"$d/layers/sj.toml"
expect_status 2 "sweep -o whose .jsonl is an included file" "$clerk" sweep "$d/layers/sj.toml" --set nginx.worker_processes=1,2 -o "$d/layers/common.csv"
expect_text "sweep -o whose .jsonl is an included file" "is the same file as the input '$d/layers/common.jsonl'"
[ "$(sum "$d/layers/common.toml")" = "$before" ] && [ "$(sum "$d/layers/hw/small-hdd.toml")" = "$hw_before" ] &&
  cmp -s "$d/layers/common.toml" "$d/layers/common.jsonl" ||
  fail "an output overwrote a file its scenario includes"
[ ! -e "$d/layers/common.csv" ] || fail "sweep wrote $d/layers/common.csv after refusing its outputs"

# The review's findings on that (issue 19): the access log a scenario
# replays is one of its files for every command, not only run; whatif's
# --disk profiles are inputs too; an output error shows a hostile name
# escaped.
expect_status 2 "compare --json onto the access log it replays" "$clerk" compare "$d/tr/replay.toml" "$d/tr/replay.toml" --duration 0.01 --json "$d/tr/combined.log"
expect_status 2 "whatif --json onto the access log it replays" "$clerk" whatif "$d/tr/replay.toml" --threads 1,2 --no-figure --json "$d/tr/combined.log"
cmp -s "$d/tr/combined.log" "$d/combined.copy" || fail "compare or whatif --json overwrote the access log it replays"
cp "$d/layers/hw/small-hdd.toml" "$d/myhw.toml"
expect_status 2 "whatif --disk=PROFILE --json onto that profile" "$clerk" whatif "$d/layers/s.toml" --disk="$d/myhw.toml" --no-figure --json "$d/myhw.toml"
cmp -s "$d/layers/hw/small-hdd.toml" "$d/myhw.toml" || fail "whatif --json overwrote the profile --disk named"
expect_status 2 "run --json into a folder named with an escape sequence" "$clerk" run "$s" --duration 0.01 -q --json "$d/"$'\x1b[2Jnodir/x.json'
expect_text "run --json into a folder named with an escape sequence" '\x1b[2Jnodir'
! grep -q $'\x1b' "$tmp/err" || fail "an output error echoed a raw escape character"
expect_status 2 "import -o named with an escape sequence" "$clerk" import "$d/in.conf" -o "$d/"$'ok\x1b[31m.toml'
expect_text "import -o named with an escape sequence" "key 'name'"
! grep -q $'\x1b' "$tmp/err" || fail "import echoed a raw escape character from its -o name"
! grep -q -- "--hardware" "$tmp/err" || fail "import blamed --hardware for its -o name"

# fsync before the rename: a crash leaves the old file or the whole new one.
if strace -f -o "$tmp/trace" -e trace=fsync,rename true 2>/dev/null; then
  strace -f -o "$tmp/trace" -e trace=fsync,rename "${run[@]}" "$tmp/synced.json" >/dev/null 2>&1
  calls=$(grep -oE '^[0-9]+ +(fsync|rename)' "$tmp/trace" | awk '{print $2}' | tr '\n' ' ')
  case "$calls" in
    *"fsync rename fsync"*) ;;
    *) fail "run --json: wanted fsync of the file, rename, fsync of the folder; strace saw: $calls" ;;
  esac
else
  skip "fsync order (strace cannot trace here)"
fi

# A folder the user cannot write to: refused before the run, exit 2, for run,
# validate and plot (which aborted, finding 7). As root a chmod'ed folder is
# writable, so root runs the checks as nobody.
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  fi
fi
if [ "$(id -u)" -ne 0 ] || [ ${#as_user[@]} -gt 0 ]; then
  ro=$tmp/ro
  mkdir -p "$ro" "$tmp/plot-tmp"
  chmod 755 "$tmp" "$ro"
  chmod 777 "$tmp/plot-tmp"
  if "${as_user[@]}" test -x "$clerk" && "${as_user[@]}" test -r "$s" && ! "${as_user[@]}" test -w "$ro"; then
    expect_status 2 "run --json into a read-only folder" "${as_user[@]}" "${run[@]}" "$ro/x.json"
    expect_text "run --json into a read-only folder" "Permission denied"
    ! grep -q "simulated in" "$tmp/out" || fail "run ran before refusing its --json folder"
    expect_status 2 "validate --json into a read-only folder" "${as_user[@]}" "${validate[@]}" "$ro/x.json"
    printf '{"sweep":"abc","run":%d,"point":%d,"axes":{"x":%d},"seed":1,"metrics":{"m":%d.5}}\n' 0 0 0 0 1 1 1 1 >"$tmp/good.jsonl"
    chmod 644 "$tmp/good.jsonl"
    expect_status 2 "plot into a read-only folder" env TMPDIR="$tmp/plot-tmp" "${as_user[@]}" \
      "$clerk" plot "$tmp/good.jsonl" --x x --y m -o "$ro/p"
    [ -z "$(ls -A "$ro")" ] || fail "something was written into the read-only folder: $(ls -A "$ro")"
    [ -z "$(ls -A "$tmp/plot-tmp")" ] || fail "plot into a read-only folder left $(ls -A "$tmp/plot-tmp")"
  else
    skip "read-only folder checks (the build or the data is not readable by an unprivileged user)"
  fi
else
  skip "read-only folder checks (running as root and setpriv cannot drop to nobody)"
fi

echo "cli_output_hostile: $failures failed"
[ "$failures" -eq 0 ]
