// The ids of a run's random streams, for both engines: with the same seed,
// both place the files and draw the server's choices from the same numbers.
// Stable: adding one never shifts another.
#pragma once
#include <cstdint>

namespace models {

constexpr std::uint64_t kStreamServer = 1;
constexpr std::uint64_t kStreamPlacement = 2;
constexpr std::uint64_t kStreamMetadata = 3;
constexpr std::uint64_t kStreamDisk = 5;
constexpr std::uint64_t kStreamSizes = 6;
constexpr std::uint64_t kStreamPopularity = 7;  // the files' popularity ranking (models/clients/popularity.h)
constexpr std::uint64_t kStreamMoreDisks = 8;   // [disks.NAME] i: the seed of its own streams (its device's draws)
// A trace group samples its log's lines from (kTraceSampleStreams,
// group_stream_index(name)) (models/clients/trace.h), as wrk's threads draw
// from kWrkThreadStreams (wrk_group.h).

}  // namespace models
