// The disk kind "ssd" (disk_kinds.h): drawn access times over parallel
// units (models/hardware/ssd.h).
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "models/scenario/disks/ssd.h"

#include "models/hardware/ssd.h"
#include "models/scenario/limits.h"
#include "models/scenario/section.h"
#include "models/scenario/stream_ids.h"
#include "models/scenario/units.h"

namespace models {

using limits::kMaxBlockBytes;

namespace {

// (depth, bandwidth) points, empty when `key` is absent. The depths must
// rise (they are the axis the rate is interpolated on: a repeated or falling
// depth leaves a depth two rates); the rates may fall as well as rise, as
// measured (ssd_drive.h).
std::vector<std::pair<double, double>> read_depth_points(Section& s, const std::string& key) {
  std::vector<std::pair<double, double>> points;
  const toml::node* n = s.value(key);
  if (!n) return points;
  const toml::array* arr = n->as_array();
  if (!arr || arr->empty()) s.fail(key, "must be a list of [depth, bandwidth] pairs");
  double last = 0;
  for (const toml::node& e : *arr) {
    const toml::array* pair = e.as_array();
    double rate = 0;
    if (!pair || pair->size() != 2 || !pair->get(0)->is_number() || !pair->get(1)->is_string() ||
        !parse_rate(pair->get(1)->value<std::string>().value(), rate) || rate <= 0)
      s.fail(key, "each entry is [depth, \"bandwidth\"], like [4, \"1.6GB/s\"]");
    const double depth = pair->get(0)->value<double>().value();
    if (!std::isfinite(depth) || depth < 1 || depth <= last || depth > 1e6) s.fail(key, "depths must rise, from 1 up to 1e6");
    if (rate < limits::kMinRateBytesPerSecond || rate > limits::kMaxRateBytesPerSecond)
      s.fail(key, "bandwidths must be " + limits::rate_range_text());
    points.emplace_back(depth, rate);
    last = depth;
  }
  return points;
}

}  // namespace

SsdSpec read_ssd(Section& s) {
  SsdSpec d;
  d.capacity_bytes = static_cast<double>(s.size("capacity", 0, 1 << 20, true));
  d.bandwidth_Bps = s.rate("bandwidth", 0, true);
  d.parallelism = static_cast<std::uint32_t>(s.integer("parallelism", 8, 1, 4096));
  d.readahead_bytes = s.size("readahead", 128 * 1024, 4096, false, kMaxBlockBytes);
  d.sequential_bandwidth_Bps = s.rate("sequential_bandwidth", 0, false);
  // Measured throughput by queue depth: [[1, "1.4GB/s"], [4, "1.6GB/s"], [32, "1.9GB/s"]]
  d.depth_bandwidth = read_depth_points(s, "depth_bandwidth");
  d.sequential_depth_bandwidth = read_depth_points(s, "sequential_depth_bandwidth");
  if (!d.sequential_depth_bandwidth.empty() && d.sequential_bandwidth_Bps <= 0)
    s.fail("sequential_depth_bandwidth", "needs sequential_bandwidth (which tells a stream's reads apart)");
  if (const toml::node* n = s.value("latency_cdf")) {
    // A measured distribution: [["20us", 0.5], ["80us", 0.99], ..., ["1s", 1.0]]
    const toml::array* arr = n->as_array();
    if (!arr || arr->empty()) s.fail("latency_cdf", "must be a list of [time, cumulative fraction] pairs");
    double last_t = 0, last_p = 0;
    for (const toml::node& e : *arr) {
      const toml::array* pair = e.as_array();
      double t = 0;
      if (!pair || pair->size() != 2 || !pair->get(0)->is_string() || !pair->get(1)->is_number() ||
          !parse_duration(pair->get(0)->value<std::string>().value(), t))
        s.fail("latency_cdf", "each entry is [\"time\", fraction], like [\"80us\", 0.99]");
      const double p = pair->get(1)->value<double>().value();
      if (!(t >= last_t && t <= limits::kMaxSpanSeconds) || !(p >= last_p && p <= 1))
        s.fail("latency_cdf", "times and fractions must rise, times up to 1e5 s and fractions up to 1");
      d.latency_cdf.emplace_back(t, p);
      last_t = t;
      last_p = p;
    }
    if (last_p != 1.0) s.fail("latency_cdf", "the last fraction must be 1");
    return d;
  }
  d.read_median_s = s.duration("read_latency", 0, 1e-9, true);
  d.read_sigma = s.number("read_latency_sigma", 0.3, 0, 5);
  d.slow_probability = s.number("slow_read_probability", 0, 0, 1);
  d.slow_median_s = s.duration("slow_read_latency", 2e-3, 0);
  d.slow_sigma = s.number("slow_read_sigma", 1.0, 0, 5);
  d.stall_probability = s.number("stall_probability", 0, 0, 1);
  d.stall_min_s = s.duration("stall_min", 0.1, 0);
  d.stall_max_s = s.duration("stall_max", 1.0, 0);
  if (d.stall_max_s < d.stall_min_s) s.fail("stall_max", "must not be below stall_min");
  if (d.slow_probability + d.stall_probability > 1) s.fail("stall_probability", "with slow_read_probability exceeds 1");
  return d;
}

std::vector<KeyDoc> ssd_docs(const char* table, const char* when) {
  return {
      {table, when, "capacity", "", "datasheet: capacity", "", "The drive's capacity."},
      {table, when, "bandwidth", "", "datasheet: sequential read", "", "Sustained read rate, shared by the reads in flight."},
      {table, when, "parallelism", "units", "datasheet or review: NAND channels", "8 channels (SATA SSDs such as the S3700)", "Reads served at once; more wait their turn."},
      {table, when, "readahead", "", "/sys/block/DEV/queue/read_ahead_kb", "Linux's default read_ahead_kb, 128 KiB", "How much a sequential read fetches ahead."},
      {table, when, "sequential_bandwidth", "", "fio: sequential buffered read (--rw=read --direct=0), bytes over the device's busy time", "none: every read is served as a random one", "Rate of a read that starts where a recent read ended (a stream's next piece), with no access time."},
      {table, when, "sequential_depth_bandwidth", "", "fio: sequential O_DIRECT read at iodepth 1, and the buffered read's busy-time rate at its depth", "", "A stream's next read's rate by the reads outstanding when it starts (interpolated, flat beyond the ends; rates may fall with depth), in place of sequential_bandwidth alone: a lone read takes its length over the depth-1 point / parallelism.", "[[depth, \"rate\"], ...], depths rising from 1; needs sequential_bandwidth", "none: sequential_bandwidth at any depth"},
      {table, when, "depth_bandwidth", "", "fio: read bandwidth by iodepth", "", "Measured throughput by queue depth, in place of one bandwidth.", "[[depth, \"rate\"], ...], depths rising from 1", "none"},
      {table, when, "latency_cdf", "", "fio: completion latency percentiles", "", "A measured read-latency distribution, in place of the lognormal keys below.", "[[\"time\", fraction], ...], rising, the last fraction 1", "none"},
      {table, when, "read_latency", "", "datasheet: read latency (typical)", "", "Median of an ordinary read's service time (lognormal)."},
      {table, when, "read_latency_sigma", "", "", "assumption: keeps the 99th percentile near 2x the median", "Spread (log-space sigma) of ordinary reads."},
      {table, when, "slow_read_probability", "", "datasheet QoS: reads above the 99.9th percentile bound", "none", "Share of reads that collide with garbage collection."},
      {table, when, "slow_read_latency", "", "", "assumption: milliseconds", "Median of a slow read."},
      {table, when, "slow_read_sigma", "", "", "assumption", "Spread (log-space sigma) of slow reads."},
      {table, when, "stall_probability", "", "", "none", "Share of reads that stall (uniform from stall_min to stall_max)."},
      {table, when, "stall_min", "", "", "assumption", "Shortest stall."},
      {table, when, "stall_max", "", "", "the slowest reads Cloudflare measured, about a second", "Longest stall."},
  };
}

std::string ssd_probe_keys() { return "capacity = \"1t\"\nbandwidth = \"500MB/s\"\nread_latency = \"50us\"\n"; }

const DiskKind& ssd_disk_kind() {
  static const DiskKind row{
      .name = "ssd",
      .label = "SSD",
      .brief = "SSD",
      .doc = "\"ssd\" drawn access times over parallel units (ssd.h)",
      .read = [](Section& disk) -> DiskSpec { return read_ssd(disk); },
      .docs = [] { return ssd_docs("disk", "type = \"ssd\""); },
      // A drive of two figures, and one of a measured distribution.
      .probes = {ssd_probe_keys(),
                 "capacity = \"1t\"\nbandwidth = \"500MB/s\"\nlatency_cdf = [[\"50us\", 0.5], [\"1ms\", 1.0]]\n"},
      .capacity = stated_capacity<SsdSpec>,
      .make = [](const DiskSpec& s, const DiskBuild& b) -> std::unique_ptr<BlockDevice> {
        return std::make_unique<Ssd>(b.engine, std::get<SsdSpec>(s), b.streams.stream(kStreamDisk));
      },
      .preset = "edge-sata-ssd",
      .preset_words = "a SATA SSD",
      .units = [](const DiskSpec& s) { return DiskUnits{1, static_cast<double>(std::get<SsdSpec>(s).parallelism)}; },
  };
  return row;
}

}  // namespace models
