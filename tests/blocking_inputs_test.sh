#!/usr/bin/env bash
# Inputs that would block or never end (probe findings 3, 4 and 5): a FIFO
# with no writer, a folder or /dev/zero where a file is read, an include
# fan-out that doubles tenfold per level, accept_mutex_delay 0. Each must
# fail at once with exit 2 and a message naming the file or key, never hang
# (each command is bounded by expect_timeout; a hang is a failure).
set -u
clerk=$1 root=$2
. "$(dirname "$0")/lib.sh"
expect_timeout=60

mkfifo "$tmp/fifo"
mkdir "$tmp/dir"

# clerk import: the main file and an include that is a FIFO.
expect_status 2 "import of a FIFO" "$clerk" import "$tmp/fifo" -o "$tmp/out.toml"
expect_text "import of a FIFO" "is a FIFO, not a regular file"
printf 'events {}\nhttp {\n  include %s;\n}\n' "$tmp/fifo" >"$tmp/inc.conf"
expect_status 2 "import including a FIFO" "$clerk" import "$tmp/inc.conf" -o "$tmp/out.toml"
expect_text "import including a FIFO" "inc.conf:3: \"$tmp/fifo\" is a FIFO, not a regular file"

# clerk lesson --answers: a FIFO, a folder, /dev/zero.
for a in "$tmp/fifo" "$tmp/dir" /dev/zero; do
  expect_status 2 "lesson --answers $a" "$clerk" lesson 1 --lessons "$root/lessons" --answers "$a"
  expect_message "lesson --answers $a" "--answers: '$a' is a (FIFO|folder|character device), not a regular file"
done

# A scenario whose includes fan out: ten includes of the next file, six
# levels deep, is a million loads; refused past 4096 at the include key.
for i in 1 2 3 4 5; do
  n=$((i + 1))
  printf 'include = [%s]\n' "$(for _ in 1 2 3 4 5 6 7 8 9 10; do printf '"l%s.toml", ' $n; done)" >"$tmp/l$i.toml"
done
printf 'include = "%s/scenarios/agreement/hits.toml"\n' "$root" >"$tmp/l6.toml"
printf 'include = "l1.toml"\n' >"$tmp/fan.toml"
expect_status 2 "include fan-out" "$clerk" run "$tmp/fan.toml" --duration 0.01
expect_message "include fan-out" "\.toml:[0-9]+: key 'include': more than 4096 files included in all"

# accept_mutex_delay 0 with accept_mutex on: a worker that lost the mutex
# would poll without sleeping (simulated time stood still).
expect_status 2 "accept_mutex_delay 0" "$clerk" run "$root/scenarios/nginx-9x/blocking.toml" --duration 0.01 \
  --set 'warmup="0s"' --set nginx.accept_mutex=on --set 'nginx.accept_mutex_delay="0ms"'
expect_message "accept_mutex_delay 0" "key 'nginx.accept_mutex_delay': must be at least 1ms with accept_mutex on"
expect_status 2 "accept_mutex_delay 1ns" "$clerk" run "$root/scenarios/nginx-9x/blocking.toml" --duration 0.01 \
  --set 'warmup="0s"' --set nginx.accept_mutex=on --set 'nginx.accept_mutex_delay="1ns"'
printf 'events {\n  accept_mutex on;\n  accept_mutex_delay 0;\n}\n' >"$tmp/amd.conf"
expect_status 2 "import accept_mutex_delay 0" "$clerk" import "$tmp/amd.conf" -o "$tmp/out.toml"
expect_text "import accept_mutex_delay 0" "amd.conf:3: accept_mutex_delay 0 with accept_mutex on"
printf 'events {\n  accept_mutex off;\n  accept_mutex_delay 0;\n}\n' >"$tmp/amd-off.conf"
expect_status 0 "import accept_mutex_delay 0, mutex off" "$clerk" import "$tmp/amd-off.conf" -o "$tmp/out.toml"

# worker_connections exhausted with a zero one-way delay and a free connect():
# every refused connection was retried at the same instant, for ever.
printf 'include = "%s/scenarios/agreement/hits.toml"\npreload = []\n[clients.hot]\npath = "random"\n[nginx]\nworker_connections = 3\n[network]\none_way_latency = "0s"\n' "$root" >"$tmp/lat0.toml"
expect_status 2 "refusal cycle in no time" "$clerk" run "$tmp/lat0.toml" --duration 0.01
expect_text "refusal cycle in no time" "lat0.toml:8: key 'network.one_way_latency': 0 with cpu.client_connect 0 and worker_connections set"
expect_status 0 "the same with a connect() cost" "$clerk" run "$tmp/lat0.toml" --duration 0.01 -q --no-timing \
  --set 'cpu.client_connect="1us"'

echo "blocking_inputs: $failures failed"
[ "$failures" -eq 0 ]
