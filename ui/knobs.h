// The settings a user may change while watching, named as in nginx.conf and
// the scenario files. They are applied to a copy of the loaded Scenario (the
// same struct `clerk run` builds its World from), so every combination the
// widgets allow is one the loader would accept.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"

namespace ui {

struct Knobs {
  int workers = 1;            // worker_processes
  int aio = 0;                // aio: index in models::aio_modes()
  int pool_threads = 32;      // thread_pool default threads=
  int max_queue = 65536;      // thread_pool default max_queue=
  int chunk_kib = 0;          // sendfile_max_chunk (0: no limit)
  int accept = 0;             // index in models::accept_policies()
  int disk = 1;               // [disk] type: index in models::disk_kinds()
  float cache_gib = 44;       // page cache size
  std::vector<int> connections;  // per wrk group
  float duration_s = 60;
  std::uint64_t seed = 1;  // the whole seed, as clerk run takes it (a scenario's or --seed)

  bool operator==(const Knobs&) const = default;
};

// The widgets' ranges (edit_knobs), for a test that drives each to both ends.
struct KnobLimits {
  static constexpr int kWorkers[2] = {1, 64};
  static constexpr int kPoolThreads[2] = {1, 128};
  static constexpr int kMaxQueue[2] = {0, 65536};
  static constexpr int kChunksKib[6] = {0, 128, 256, 512, 1024, 2048};  // sendfile_max_chunk's choices (0: no limit)
  static constexpr float kCacheGib[2] = {0.25f, 64.0f};
  static constexpr int kMaxConnections = 20000;  // per group; the least is the group's wrk threads
  static constexpr float kDurationS[2] = {1.0f, 600.0f};
};

Knobs knobs_of(const models::Scenario& sc, std::uint64_t seed);
models::Scenario apply(models::Scenario sc, const Knobs& k);
// One line saying what runs: workers, aio, chunk, disk, cache, load.
std::string describe(const models::Scenario& sc);
// The settings of `mine` that differ from `other`, in nginx.conf's words
// ("aio threads, 8 workers"); "same settings" when none do.
std::string differences(const Knobs& mine, const Knobs& other, const models::Scenario& sc);
// The widgets; true when something changed.
bool edit_knobs(Knobs& k, const models::Scenario& sc);

}  // namespace ui
