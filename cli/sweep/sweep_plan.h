// A sweep expanded: every point (one value per axis), the runs (one per point
// and seed) and their identities. Run ids are fixed by the spec alone, so a
// shard, a resumed sweep and a whole sweep agree on what run 17 is.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/sweep/sweep_spec.h"

namespace cli::sweep {

struct Point {
  std::uint64_t index = 0;
  std::vector<AxisValue> values;  // one per axis, in the plan's axis order
};

struct RunRef {
  std::uint64_t id = 0;     // point * seeds + seed index
  std::uint64_t point = 0;
  std::uint64_t seed = 0;
};

// `--shard I/N`: the I-th (1-based) of N disjoint parts; a point and all its
// seeds go to part (point mod N) + 1, so each part can summarize its points.
struct Shard {
  std::uint64_t index = 1;
  std::uint64_t count = 1;
  bool holds(std::uint64_t point) const { return point % count == index - 1; }
};
Shard parse_shard(const std::string& text);  // throws SweepError

struct Plan {
  std::string scenario;       // the base scenario's file
  std::string scenario_name;  // and its name
  std::vector<std::string> fixed;
  std::vector<std::string> axis_keys;
  std::vector<Point> points;
  std::vector<std::uint64_t> seeds;
  std::vector<std::string> metrics;
  double confidence = 0.95;
  // The files the sweep reads: the spec file (if any), then every file a
  // point's scenario is read from (the scenario, its includes, each hardware
  // profile of the hardware axis), each once. Outputs may be none of them.
  std::vector<std::string> inputs;
  // A hash of everything above, the inputs' bytes (not their paths, which
  // differ between the machines of a cluster): rows of different sweeps, or
  // of one sweep before and after an input was edited, never mix.
  std::string fingerprint;
  // Each point's estimated memory (models::estimate_resources), by index in
  // `points`; 0 for the points of other shards. Not in the fingerprint.
  std::vector<double> point_bytes;

  std::uint64_t total_runs() const { return points.size() * seeds.size(); }
  RunRef run(std::uint64_t id) const;
  std::vector<RunRef> runs(const Shard& shard) const;
  // The scenario overrides of a point: the fixed ones, then its axis values
  // (the hardware axis aside).
  std::vector<std::string> overrides(const Point& p) const;
  // The hardware profile of a point: its hardware axis value; empty without one.
  std::string hardware(const Point& p) const;
};

// Expands the spec and checks it before any of its runs: its size (points
// and runs, from the axes' lengths, before any value is loaded), every axis
// value and every point of the shard is loaded as a scenario, every metric
// must be a figure of the run of some point (every run's figures: a 1 ms
// probe run of the base scenario; those only some configurations write:
// each point's own, models::json_skeleton), and every point of the shard
// must fit the machine alone (models::check_fits_machine).
// Throws SweepError naming the axis, the metric or the point.
Plan make_plan(const SweepSpec& spec, const Shard& shard = {});

// The metrics a sweep keeps when the spec names none.
std::vector<std::string> main_metrics(const std::vector<std::string>& client_groups);

// Throws SweepError naming `where` and the group when a client group's
// figures cannot be named by a metric path ("clients.GROUP.requests_per_s"):
// a path is split at every '.', so a group named "" or "a.b" (which clerk
// run accepts, as a quoted TOML key) cannot be reached. Called for the
// groups whose metrics a sweep or a what-if would keep, before any run.
void check_group_in_paths(const std::string& group, const std::string& where);

}  // namespace cli::sweep
