#!/usr/bin/env bash
# clerk run --engine simgrid with more actors than vm.max_map_count allows
# (probe 5, finding 1): SimGrid aborted (exit 134, "Failed to protect stack").
# Now the run is refused before SimGrid starts, exit 2, naming the key, the
# count and the limit (engines/simgrid/sg_actors.h); one actor fewer than the
# limit still runs.
#
# slow-disk.toml with aio threads, by hand: 24 wrk sockets (16 + 8), 24 NIC
# flows, 2 workers, 2 x T pool threads, 1 drive (fcfs), 2 clocks:
# 53 + 2 T actors. The limit is (max_map_count - 1024) / 2 (sg_actors.cpp).
set -u
clerk=$1 scenarios=$2
. "$(dirname "$0")/lib.sh"
expect_timeout=60
scenario=$scenarios/agreement/slow-disk.toml
maps=$(cat /proc/sys/vm/max_map_count)
limit=$(((maps - 1024) / 2))
over=$(((limit - 53) / 2 + 1))  # the fewest threads past the limit
if [ "$over" -gt 65536 ]; then
  echo "simgrid_actor_limit: vm.max_map_count = $maps allows more pool threads than nginx.thread_pool.threads takes: skipped"
  exit 77
fi
run=("$clerk" run "$scenario" --engine simgrid -q --no-timing --set nginx.aio=threads)

expect_status 2 "$over pool threads a worker" "${run[@]}" --duration 0.01 --set nginx.thread_pool.threads=$over
expect_text "refusal" "nginx.thread_pool.threads x nginx.worker_processes: the SimGrid engine would start up to $((53 + 2 * over)) actors, more than the $limit that vm.max_map_count = $maps allows"
expect_text "the count" "pool threads: $((2 * over)) (nginx.thread_pool.threads x nginx.worker_processes)"
# hits.toml: 2 C + 6 actors. Probe 5's 17,000 connections aborted; this many
# did too (past 65,530 mappings with the program's own).
expect_status 2 "$((limit / 2 + 400)) connections" "$clerk" run "$scenarios/agreement/hits.toml" --engine simgrid -q \
  --duration 0.05 --set clients.hot.connections=$((limit / 2 + 400))
expect_text "connections" "clients.hot.connections: the SimGrid engine would start up to"
# At the limit: SimGrid starts every actor (at 65,530, 64,700 mappings).
expect_status 0 "$((over - 1)) pool threads a worker" "${run[@]}" --duration 0.001 \
  --set nginx.thread_pool.threads=$((over - 1))

echo "simgrid_actor_limit: $failures failed"
[ "$failures" -eq 0 ]
