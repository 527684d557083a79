#include "testbed/calibrate/fio_fit.h"

#include "models/hardware/ssd.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace testbed::calibrate {

ModelPoint ssd_model_point(double access_mean_s, double bandwidth_Bps, unsigned parallelism, std::uint64_t block,
                           unsigned qd) {
  const double service = access_mean_s + static_cast<double>(block) * parallelism / bandwidth_Bps;
  ModelPoint p;
  if (qd <= parallelism) {
    p.mean_latency_s = service;
    p.iops = qd / service;
  } else {
    p.iops = parallelism / service;  // every unit busy
    p.mean_latency_s = qd / p.iops;  // Little's law over the whole queue
  }
  return p;
}

double fitted_bandwidth(const SsdFit& f, double depth) {
  return models::bandwidth_at_depth(f.depth_bandwidth, f.bandwidth_Bps, depth);
}

double cdf_mean(const std::vector<std::pair<double, double>>& cdf) {
  if (cdf.empty()) return 0;
  // Below the first point the model scales the first time linearly (0 at u = 0).
  double mean = cdf.front().second * cdf.front().first / 2;
  for (std::size_t i = 1; i < cdf.size(); ++i)
    mean += (cdf[i].second - cdf[i - 1].second) * (cdf[i].first + cdf[i - 1].first) / 2;
  return mean;
}

namespace {
const FioJob* find_job(const std::vector<FioJob>& jobs, std::uint64_t block, unsigned qd) {
  for (const FioJob& j : jobs)
    if (j.block_bytes == block && j.queue_depth == qd) return &j;
  return nullptr;
}
// One size's QD1 completion latencies less its transfer time: min at 0,
// percentiles, max at 1.
std::vector<std::pair<double, double>> access_cdf(const FioJob& qd1, double transfer) {
  std::vector<std::pair<double, double>> cdf;
  auto add = [&](double t, double fraction) {
    t = std::max(t - transfer, 0.0);
    if (!cdf.empty()) t = std::max(t, cdf.back().first);  // the shift keeps order; bucketing may not
    cdf.emplace_back(t, fraction);
  };
  add(qd1.clat_min_s, 0.0);
  for (const auto& [percent, t] : qd1.clat_percentiles) add(t, percent / 100);
  add(std::max(qd1.clat_max_s, cdf.back().first + transfer), 1.0);
  // Reads faster than the mean transfer time clamp to 0: keep one point per
  // time (the highest fraction), which the model samples the same way.
  std::vector<std::pair<double, double>> merged;
  for (const auto& point : cdf) {
    if (merged.size() > 1 && merged.back().first == point.first)
      merged.back().second = point.second;
    else
      merged.push_back(point);
  }
  return merged;
}
}  // namespace

SsdFit fit_ssd(const std::vector<FioJob>& jobs) {
  SsdFit f;
  std::vector<std::uint64_t> sizes;
  unsigned deepest = 0;
  for (const FioJob& j : jobs) {
    if (j.queue_depth == 1) sizes.push_back(j.block_bytes);
    deepest = std::max(deepest, j.queue_depth);
    f.measured_max_bandwidth_Bps = std::max(f.measured_max_bandwidth_Bps, j.bandwidth_Bps);
  }
  std::sort(sizes.begin(), sizes.end());
  if (sizes.size() < 2 || sizes.front() == sizes.back()) throw std::invalid_argument("fit: needs QD1 at two block sizes");
  if (deepest < 2) throw std::invalid_argument("fit: needs a queue depth above 1");
  f.small_block = sizes.front();
  f.large_block = sizes.back();
  f.deepest_queue = deepest;

  // Little's law per block size: the saturated IOPS (the best over the queue
  // depths: a deeper queue cannot serve more at once) times the unloaded
  // latency is how many reads the device serves at once. The median over
  // sizes, so one noisy run does not decide it.
  std::vector<double> in_service;
  for (const std::uint64_t bs : sizes) {
    double best = 0;
    for (const FioJob& j : jobs)
      if (j.block_bytes == bs) best = std::max(best, j.iops);
    const double estimate = best * find_job(jobs, bs, 1)->clat_mean_s;
    f.parallelism_by_size.emplace_back(bs, estimate);
    in_service.push_back(estimate);
  }
  std::sort(in_service.begin(), in_service.end());
  const std::size_t n = in_service.size();
  f.parallelism_exact = n % 2 ? in_service[n / 2] : 0.5 * (in_service[n / 2 - 1] + in_service[n / 2]);
  f.parallelism = static_cast<unsigned>(std::max(1.0, std::round(f.parallelism_exact)));
  // The line through the saturated service times (parallelism / best IOPS)
  // at the smallest and largest sizes, not through the QD1 latencies: a
  // loaded server keeps the queue deep, so throughput at depth is what the
  // model must reproduce. On a device that pipelines (a virtual disk whose
  // host overlaps a deep queue's transfers) large reads at QD1 are slower
  // than at depth; the table of model against fio shows the difference.
  auto saturated = [&](std::uint64_t bs) {
    double best = 0;
    for (const FioJob& j : jobs)
      if (j.block_bytes == bs) best = std::max(best, j.iops);
    return static_cast<double>(f.parallelism) / best;
  };
  const double small_service = saturated(f.small_block), large_service = saturated(f.large_block);
  f.slope_s_per_byte = (large_service - small_service) / static_cast<double>(f.large_block - f.small_block);
  if (f.slope_s_per_byte > 0) {
    f.bandwidth_Bps = f.parallelism / f.slope_s_per_byte;
  } else {
    // Larger reads were not slower: no transfer term to see; take the best
    // measured bandwidth as the device's and keep the model consistent with it.
    f.notes.push_back("QD1 latency did not grow with the block size: bandwidth taken from the best fio figure");
    f.bandwidth_Bps = f.measured_max_bandwidth_Bps;
    f.slope_s_per_byte = f.parallelism / f.bandwidth_Bps;
  }
  f.access_mean_s = small_service - static_cast<double>(f.small_block) * f.slope_s_per_byte;
  if (f.access_mean_s <= 0) {
    f.notes.push_back("the fitted access time came out at or below 0: set to 1 us");
    f.access_mean_s = 1e-6;
  }

  // Throughput by depth, at the largest size (the server's 1 MiB bios):
  // IOPS(d) = min(d, P) / (access + size x P / bandwidth(d)).
  std::vector<const FioJob*> by_depth;
  for (const FioJob& j : jobs)
    if (j.block_bytes == f.large_block) by_depth.push_back(&j);
  std::sort(by_depth.begin(), by_depth.end(), [](const FioJob* a, const FioJob* b) { return a->queue_depth < b->queue_depth; });
  for (const FioJob* j : by_depth) {
    const double busy = std::min<double>(j->queue_depth, f.parallelism);
    const double transfer = busy / j->iops - f.access_mean_s;
    if (j->iops <= 0 || transfer <= 0) continue;
    if (!f.depth_bandwidth.empty() && f.depth_bandwidth.back().first == j->queue_depth) continue;
    f.depth_bandwidth.emplace_back(j->queue_depth, static_cast<double>(f.large_block) * f.parallelism / transfer);
  }

  // The access-time CDF: QD1 percentiles less the transfer time. At the
  // largest size (the server's 1 MiB bios) unless the percentiles there, less
  // transfer, disagree with the fitted access time by more than 25% (a device
  // whose latency is not access + size / rate, e.g. one with a cache in front
  // of it: reads faster than the transfer time clamp to 0); then at the size
  // where they agree best, so that the tail keeps its measured shape.
  struct Candidate {
    std::vector<std::pair<double, double>> cdf;
    double scale = 1;
    std::uint64_t block = 0;
  };
  std::vector<Candidate> candidates;
  for (auto it = sizes.rbegin(); it != sizes.rend(); ++it) {
    Candidate c;
    c.block = *it;
    c.cdf = access_cdf(*find_job(jobs, *it, 1), static_cast<double>(*it) * f.slope_s_per_byte);
    const double mean = cdf_mean(c.cdf);
    c.scale = mean > 0 ? f.access_mean_s / mean : 1;
    candidates.push_back(std::move(c));
  }
  auto misfit = [](const Candidate& c) { return std::abs(std::log(c.scale)); };
  const Candidate* chosen = &candidates.front();
  if (misfit(*chosen) > std::log(1.25))
    for (const Candidate& c : candidates)
      if (misfit(c) < misfit(*chosen)) chosen = &c;
  if (chosen->block != f.large_block)
    f.notes.push_back(fmt::format("the CDF is from {}k: at {}k the percentiles less transfer needed x {:.2f} to match "
                                  "the mean",
                                  chosen->block >> 10, f.large_block >> 10, candidates.front().scale));
  if (misfit(*chosen) > std::log(2))
    f.notes.push_back(fmt::format("the CDF's percentiles needed x {:.2f} to match fio's mean less transfer", chosen->scale));
  f.cdf_block_bytes = chosen->block;
  f.cdf_scale = chosen->scale;
  f.latency_cdf = chosen->cdf;
  for (auto& [t, p] : f.latency_cdf) t *= f.cdf_scale;
  return f;
}

}  // namespace testbed::calibrate
