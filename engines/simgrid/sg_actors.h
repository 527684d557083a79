// The actors a SimGrid run starts, counted from the scenario before SimGrid
// is loaded, and the bound the machine puts on them (probe 5, finding 1: a
// run of 17,000 connections aborted in SimGrid with "Failed to protect
// stack").
//
// Each actor has a stack of its own, and SimGrid 3.32 makes its lowest page
// a guard: SwappedContext's constructor (src/kernel/context/ContextSwapped.cpp)
// allocates stack + guard with posix_memalign and mprotect()s the guard
// PROT_NONE, with contexts/guard-size's default of one page
// (src/simgrid/sg_config.cpp). That splits the memory the stack lies in: a
// PROT_NONE mapping and a read-write one beside it, two more mappings per
// actor whether the stack came from the heap (one mapping cut in three) or
// from an mmap of its own (glibc maps 260 KiB chunks apart; the next one's
// read-write end merges with this one's). Linux refuses a mapping past
// vm.max_map_count (mm/mmap.c, -ENOMEM), and SimGrid then aborts. So a run
// may start (max_map_count - the program's other mappings) / 2 actors.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/disk_spec.h"
#include "models/scenario/scenario.h"

namespace sgengine {

// Actors of one kind, and the scenario keys that make them.
struct ActorCount {
  std::string keys;
  std::uint64_t actors = 0;
  std::string what;  // one actor per what
};

// Every kind of actor the SimGrid world of this scenario starts, with an
// upper bound of those started as it runs (NIC flows, a shared disk's reads).
std::vector<ActorCount> count_actors(const models::Scenario& sc);
std::uint64_t total_actors(const std::vector<ActorCount>& counts);

// The disk's actors (engines/simgrid/sg_disk_actors.cpp, by kind), when at
// most `reads_at_once` reads are in flight.
ActorCount disk_actors(const models::DiskSpec& disk, std::uint64_t reads_at_once);

// How many actors a run may start under vm.max_map_count = `max_map_count`.
std::uint64_t actor_limit(std::uint64_t max_map_count);
// /proc/sys/vm/max_map_count, or Linux's default (DEFAULT_MAX_MAP_COUNT,
// 65530) when it cannot be read.
std::uint64_t max_map_count();

// The refusal naming the keys, the count and the limit; nothing when the
// run's actors fit.
std::optional<std::string> too_many_actors(const models::Scenario& sc, std::uint64_t max_map_count);

}  // namespace sgengine
