#include "testbed/calibrate/seq_read.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/text_file.h"
#include "testbed/calibrate/fio_json.h"
#include "testbed/calibrate/interrupt.h"
#include "testbed/calibrate/tools.h"
#include "testbed/realrun/block_stats.h"

namespace testbed::calibrate {


std::vector<std::string> fio_seq_args(const std::string& file, std::uint64_t file_bytes, const std::string& output_file) {
  return {fio_tool().path,
          "--name=seqread-buffered",
          "--filename=" + file,
          fmt::format("--size={}", file_bytes),
          "--rw=read",
          "--bs=1m",
          "--ioengine=psync",
          "--direct=0",
          "--invalidate=1",
          "--output-format=json",
          "--output=" + output_file};
}

SeqRead seq_read_from(const std::string& fio_json, const std::string& stat_before, const std::string& stat_after) {
  const auto jobs = parse_fio_json(fio_json);
  if (jobs.size() != 1) throw std::runtime_error("fio: expected one sequential job");
  const realrun::BlockStat a = realrun::parse_block_stat(stat_before), b = realrun::parse_block_stat(stat_after);
  if (!a.ok || !b.ok) throw std::runtime_error("unreadable block device stat line");
  SeqRead r;
  r.fio_bandwidth_Bps = jobs.front().bandwidth_Bps;
  r.fio_bytes = jobs.front().ios * jobs.front().block_bytes;
  r.requests = b.reads - a.reads;
  r.bytes = (b.read_sectors - a.read_sectors) * 512;
  r.read_ticks_s = static_cast<double>(b.read_ticks_ms - a.read_ticks_ms) * 1e-3;
  r.io_ticks_s = static_cast<double>(b.io_ticks_ms - a.io_ticks_ms) * 1e-3;
  r.time_in_queue_s = static_cast<double>(b.time_in_queue_ms - a.time_in_queue_ms) * 1e-3;
  return r;
}

SeqFit fit_sequential(const SeqRead& j, const SsdFit& random) {
  if (j.requests == 0 || j.bytes == 0 || j.io_ticks_s <= 0)
    throw std::runtime_error("the sequential read reached no disk (was the file still cached?)");
  SeqFit f;
  f.sequential_bandwidth_Bps = static_cast<double>(j.bytes) / j.io_ticks_s;
  f.mean_request_bytes = static_cast<double>(j.bytes) / static_cast<double>(j.requests);
  f.mean_depth = j.time_in_queue_s / j.io_ticks_s;
  f.await_s = j.read_ticks_s / static_cast<double>(j.requests);
  f.sequential_service_s = f.mean_request_bytes / f.sequential_bandwidth_Bps;
  // The random model at that size and depth: parallelism units, each an
  // access time plus the transfer at the depth's bandwidth per unit.
  const double unit_bandwidth = fitted_bandwidth(random, f.mean_depth) / random.parallelism;
  f.random_service_s = random.access_mean_s + f.mean_request_bytes / unit_bandwidth;
  f.random_bandwidth_Bps = random.parallelism * f.mean_request_bytes / f.random_service_s;
  return f;
}

std::size_t median_seq_run(const std::vector<SeqRead>& runs) {
  if (runs.empty()) throw std::invalid_argument("no sequential runs");
  const auto rate = [](const SeqRead& r) { return r.io_ticks_s > 0 ? static_cast<double>(r.bytes) / r.io_ticks_s : 0.0; };
  std::vector<std::size_t> order(runs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rate(runs[a]) < rate(runs[b]); });
  return order[(order.size() - 1) / 2];
}

std::uint64_t qd1_block_bytes(const SeqFit& buffered) {
  const auto bytes = static_cast<std::uint64_t>(buffered.mean_request_bytes);
  return std::max<std::uint64_t>(4096, bytes / 4096 * 4096);
}

std::vector<std::string> fio_seq_qd1_args(const std::string& file, std::uint64_t file_bytes, std::uint64_t block_bytes,
                                          double seconds, const std::string& output_file) {
  return {fio_tool().path,
          fmt::format("--name=seqread-direct-{}k-qd1", block_bytes >> 10),
          "--filename=" + file,
          fmt::format("--size={}", file_bytes),
          "--rw=read",
          fmt::format("--bs={}k", block_bytes >> 10),
          "--ioengine=psync",
          "--direct=1",
          "--time_based",
          fmt::format("--runtime={}ms", static_cast<long>(seconds * 1000)),
          "--output-format=json",
          "--output=" + output_file};
}

SeqQd1 seq_qd1_from(const std::string& fio_json) {
  const auto jobs = parse_fio_json(fio_json);
  if (jobs.size() != 1) throw std::runtime_error("fio: expected one sequential job");
  const FioJob& j = jobs.front();
  return SeqQd1{j.block_bytes, j.ios, j.clat_mean_s, j.bandwidth_Bps};
}

std::vector<std::pair<double, double>> sequential_depth_points(const SeqQd1& qd1, const SeqFit& buffered,
                                                               unsigned parallelism) {
  if (qd1.ios == 0 || !(qd1.clat_mean_s > 0)) throw std::runtime_error("the QD1 sequential read completed no read");
  const double units = std::max(1u, parallelism);
  std::vector<std::pair<double, double>> points{{1.0, units * static_cast<double>(qd1.block_bytes) / qd1.clat_mean_s}};
  // A depth that rounds to 1 in the profile adds no point.
  const double depth = std::round(buffered.mean_depth * 100) / 100;
  if (depth > 1) points.emplace_back(depth, buffered.sequential_bandwidth_Bps * units / std::min(depth, units));
  return points;
}

std::size_t median_qd1_run(const std::vector<SeqQd1>& runs) {
  if (runs.empty()) throw std::invalid_argument("no QD1 sequential runs");
  std::vector<std::size_t> order(runs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return runs[a].clat_mean_s < runs[b].clat_mean_s; });
  return order[(order.size() - 1) / 2];
}

SeqQd1 run_sequential_qd1(const FioPlan& plan, std::uint64_t block_bytes, const std::string& scratch_dir) {
  throw_if_interrupted();
  const std::string out = scratch_dir + "/fio-seq-qd1.json";
  run_and_capture(fio_seq_qd1_args(plan.file, plan.file_bytes, block_bytes, plan.seconds, out));
  const SeqQd1 r = seq_qd1_from(common::read_text_or_throw(out));
  std::remove(out.c_str());
  fmt::print("  fio read (sequential, O_DIRECT, QD1) bs={}k: {:.1f} MB/s, mean {:.1f} us a read\n", block_bytes >> 10,
             r.bandwidth_Bps / 1e6, r.clat_mean_s * 1e6);
  std::fflush(stdout);
  return r;
}

SeqRead run_sequential_read(const FioPlan& plan, const std::string& device, const std::string& scratch_dir) {
  throw_if_interrupted();
  const std::string stat = "/sys/class/block/" + device + "/stat";
  const std::string out = scratch_dir + "/fio-seq.json";
  const std::string before = common::read_text_or_throw(stat);
  run_and_capture(fio_seq_args(plan.file, plan.file_bytes, out));
  const std::string after = common::read_text_or_throw(stat);
  const SeqRead r = seq_read_from(common::read_text_or_throw(out), before, after);
  std::remove(out.c_str());
  fmt::print("  fio read (sequential, buffered) bs=1m: {:.1f} MB/s; the device: {} requests of {:.0f} KiB, {:.3f} s busy: {:.1f} MB/s\n",
             r.fio_bandwidth_Bps / 1e6, r.requests,
             r.requests ? static_cast<double>(r.bytes) / static_cast<double>(r.requests) / 1024 : 0.0, r.io_ticks_s,
             r.io_ticks_s > 0 ? static_cast<double>(r.bytes) / r.io_ticks_s / 1e6 : 0.0);
  std::fflush(stdout);
  return r;
}

}  // namespace testbed::calibrate
