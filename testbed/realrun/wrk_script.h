// The Lua script each wrk process runs, and the summary line its done()
// prints (parsed back here).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace testbed::realrun {

struct WrkScriptParams {
  std::vector<std::uint32_t> tree;  // the data set's tree (for a random-file group)
  std::string fixed_path;           // "": a uniformly random file per request
  std::uint64_t seed = 1;           // random-file groups: thread i seeds with seed + i
  // Request popularity (models/clients/popularity.h), the same model as the
  // simulation's, drawn with Lua's math.random: "uniform", "zipf" or "hot".
  std::string popularity = "uniform";
  std::string rank_file = "";       // zipf, hot: the file ids in popularity order, one a line
  double zipf_exponent = 1.0;
  std::uint32_t hot_count = 0;      // hot: the first hot_count ranks are hot
  double hot_share = 0.9;           // hot: their share of the requests
};

// random-file: init() builds every request of the set once (wrk.format),
// request() picks one with math.random (uniform, or by rank from the rank
// file: Zipf by a binary search of the cumulative weights, the hot set by
// two draws, as models::FilePicker); fixed: wrk.path only, so wrk keeps
// its static request (no Lua per request). Both print the summary line.
std::string wrk_script(const WrkScriptParams& params);

// done()'s line: "CLERK requests=... bytes=... ..." (times in microseconds).
struct WrkSummary {
  std::uint64_t requests = 0, bytes = 0;
  double duration_us = 0;
  std::uint64_t connect = 0, read = 0, write = 0, status = 0, timeout = 0;
  double latency_mean_us = 0, latency_stdev_us = 0, latency_max_us = 0;
  double p50_us = 0, p75_us = 0, p90_us = 0, p99_us = 0;
  // clerk-replay's line only (testbed/replay): the lines that fell due, and
  // of those the ones still queued or under way at the end.
  bool replay = false;
  std::uint64_t due = 0, waiting = 0, in_flight = 0;
};

// clerk-replay's accounting: every line due is answered, lost with its
// connection (a read or write error), queued or under way, and the lines
// due are the schedule's `scheduled` lines (all due before the end). ""
// when it holds, else why not.
std::string replay_accounting_error(const WrkSummary& s, std::uint64_t scheduled);

// The summary line in wrk's output; nullopt (and `error` set) when there is
// none or a key is missing or not a number.
std::optional<WrkSummary> parse_wrk_summary(const std::string& output, std::string* error = nullptr);

}  // namespace testbed::realrun
