// What a sweep runs: a base scenario, overrides every run shares, the axes,
// how the axes combine, the seeds of each point and the metrics kept.
// Written as a TOML file with a [sweep] table and [[axis]] entries, or given
// on the command line (`clerk sweep SCENARIO --set KEY=v1,v2 ...`).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/sweep/sweep_axis.h"

namespace cli::sweep {

enum class Mode { kGrid, kZip, kRandom };

// Caps that keep a sweep within memory (each point and each run is held in
// memory while planning, and every seed is a run of every point): a typo like
// seeds = 99999999999 is refused up front, not met with bad_alloc.
inline constexpr std::uint64_t kMaxSeeds = 100'000;      // seeds per point
inline constexpr std::uint64_t kMaxSamples = 1'000'000;  // points drawn in random mode
inline constexpr std::uint64_t kMaxRuns = 10'000'000;    // points x seeds

// Throws SweepError naming `where` and `key` when `value` is above `cap`.
void check_cap(const std::string& where, const std::string& key, std::uint64_t value, std::uint64_t cap,
               const std::string& what);

// A confidence level: above 0 and below 1 (sweep, merge and plot alike).
// Returns it; throws SweepError naming `option` otherwise (NaN too).
double check_confidence(double level, const std::string& option);

struct SweepSpec {
  std::string origin;                // the spec file, or "the command line"
  std::string file;                  // the spec file; empty for a sweep given on the command line
  std::string scenario;              // the base scenario file
  std::vector<std::string> fixed;    // "key=value" overrides for every run
  std::vector<Axis> axes;
  Mode mode = Mode::kGrid;           // grid: every combination; zip: all axes in step; random: samples
  std::uint64_t samples = 0;         // points drawn in random mode
  std::uint64_t sample_seed = 1;     // the draw's seed, so a random sweep is repeatable
  std::vector<std::uint64_t> seeds;  // empty: the scenario's own seed
  std::vector<std::string> metrics;  // dotted paths into a run's JSON; empty: the main ones
  double confidence = 0.95;          // of the intervals around each point's mean
};

// True when the file has a [sweep] table (otherwise it is taken as a scenario).
bool is_sweep_file(const std::string& path);
// Reads a sweep spec. Throws SweepError naming file, line and key or axis.
SweepSpec read_spec(const std::string& path);

// A command-line --set: one value fixes the key for every run, a list or a
// range makes an axis; either replaces what the spec said about that key.
void apply_set(SweepSpec& spec, const std::string& assignment);
// "3" is a count (seeds 1 to 3); "1,5,9" or "10..14:1" are the seeds themselves.
std::vector<std::uint64_t> parse_seeds(const std::string& text, const std::string& where);
Mode parse_mode(const std::string& text, const std::string& where);

}  // namespace cli::sweep
