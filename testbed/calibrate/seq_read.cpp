#include "testbed/calibrate/seq_read.h"

#include <algorithm>
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
