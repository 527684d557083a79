// Fits the simulator's SSD model (models/hardware/ssd.h) to fio's figures.
//
// The model serves up to `parallelism` reads at once, each taking an access
// time (drawn from `latency_cdf`) plus length / (bandwidth / parallelism).
// So at queue depth 1 the mean latency is linear in the block size:
//     L1(s) = access + s * parallelism / bandwidth,
// and beyond `parallelism` outstanding reads the device is saturated:
//     IOPS(s) = parallelism / L1(s).
// The fit takes `parallelism` from Little's law (reads in service = the best
// IOPS over the queue depths x the QD1 latency: the depth beyond which
// latency grows linearly), the median over block sizes; then the slope and
// intercept of the saturated service time, parallelism / best IOPS, between
// the smallest and largest block sizes: `bandwidth` = parallelism / slope,
// access = the intercept. So the model reproduces the device's throughput at
// depth, where a loaded server runs it, at both fitted sizes; on a device
// whose QD1 latency is linear in size the QD1 means match too. The
// access-time distribution is fio's QD1 completion-latency percentiles at the
// largest block size (or, if they fit the linear model badly, the size where
// they fit best) less its transfer time, scaled so that its mean is the
// fitted access time. Last, `depth_bandwidth`: a drive whose throughput
// grows with depth gets, at each measured depth, the bandwidth that gives
// fio's IOPS at the largest block size with the fitted access time.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "testbed/calibrate/fio_json.h"

namespace testbed::calibrate {

struct SsdFit {
  double access_mean_s = 0;       // mean access time (the intercept)
  double bandwidth_Bps = 0;       // the model's `bandwidth`: parallelism x one unit's transfer rate
  unsigned parallelism = 1;
  double slope_s_per_byte = 0;    // parallelism / bandwidth
  std::vector<std::pair<double, double>> latency_cdf;  // access time (s), cumulative fraction
  std::uint64_t cdf_block_bytes = 0;     // the block size whose percentiles gave the CDF
  double cdf_scale = 1;                  // factor applied to the shifted percentiles
  double parallelism_exact = 0;          // Little's law before rounding (median over sizes)
  std::vector<std::pair<std::uint64_t, double>> parallelism_by_size;  // block size, reads in service
  std::uint64_t small_block = 0, large_block = 0;
  unsigned deepest_queue = 0;
  double measured_max_bandwidth_Bps = 0;  // the best fio figure (any size, any depth)
  // The model's `depth_bandwidth`: at each measured queue depth, the
  // bandwidth that makes the model's IOPS at the largest block size fio's.
  std::vector<std::pair<double, double>> depth_bandwidth;
  std::vector<std::string> notes;         // anything the fit had to work around
};

// The model's mean latency and IOPS for `qd` outstanding reads of `block` bytes
// (closed loop, as fio keeps its queue full): exact for the model's means.
struct ModelPoint {
  double mean_latency_s = 0;
  double iops = 0;
};
ModelPoint ssd_model_point(double access_mean_s, double bandwidth_Bps, unsigned parallelism, std::uint64_t block,
                           unsigned qd);

// Mean of a piecewise-linear CDF as the model samples it.
double cdf_mean(const std::vector<std::pair<double, double>>& cdf);

// The fitted drive's bandwidth with `depth` reads outstanding (as the model
// interpolates depth_bandwidth; `bandwidth_Bps` without it).
double fitted_bandwidth(const SsdFit& f, double depth);

// Needs QD1 at two block sizes and at least one deeper queue; throws otherwise.
SsdFit fit_ssd(const std::vector<FioJob>& jobs);

}  // namespace testbed::calibrate
