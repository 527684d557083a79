#include "model_fio.h"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "common/bad_input.h"
#include "emulated_machine.h"
#include "sim/random.h"

namespace testbed::disk {

namespace {
class Readers final : private models::IoListener, private sim::EventTarget {
 public:
  Readers(sim::Engine& engine, EmulatedMachine& m, const ModelFioSpec& spec)
      : engine_(engine),
        m_(m),
        spec_(spec),
        overhead_(sim::from_seconds_ceil(spec.overhead_us * 1e-6)),
        rng_(sim::RandomStreams(spec.seed).stream(0)),
        jobs_(spec.jobs) {}

  void start() {
    for (std::uint32_t j = 0; j < spec_.jobs; ++j) issue(j);
  }
  const FioLatencies& latencies() const { return latencies_; }

 private:
  struct Job {
    sim::Time started = 0;
    std::uint64_t at = 0;    // the block's device offset
    std::uint64_t done = 0;  // its bytes read so far
  };

  // A block-aligned block of a random file large enough to hold one
  // (model_fio refused a block no file holds). Drawn among all files until
  // one holds a block; after 1,000 misses (few files are that large), among
  // the files that do, listed once.
  void issue(std::uint32_t j) {
    const models::Filesystem& fs = m_.files();
    std::uint32_t file = 0;
    std::uint64_t blocks = 0;
    for (int tries = 0; tries < 1000 && blocks == 0; ++tries) {
      file = static_cast<std::uint32_t>(rng_.next_u64() % fs.files());
      blocks = fs.file_size(file) / spec_.block;
    }
    if (blocks == 0) {
      if (large_files_.empty())
        for (std::uint32_t f = 0; f < fs.files(); ++f)
          if (fs.file_size(f) >= spec_.block) large_files_.push_back(f);
      file = large_files_[rng_.next_u64() % large_files_.size()];
      blocks = fs.file_size(file) / spec_.block;
    }
    const std::uint64_t at = m_.device_offset(file) + (rng_.next_u64() % blocks) * spec_.block;
    Job& job = jobs_[j];
    job.started = engine_.now();
    job.at = at;
    job.done = 0;
    next_request(j);
  }

  // Each request leaves after the emulator's own cost (spec_.overhead_us).
  void next_request(std::uint32_t j) {
    if (overhead_ > 0) return engine_.schedule_in(overhead_, this, j);
    on_event(j);
  }
  void on_event(std::uint64_t arg) override {
    const Job& job = jobs_[arg];
    m_.device().submit_read(job.at + job.done, std::min(spec_.request, spec_.block - job.done), this, arg);
  }

  void on_io_done(std::uint64_t tag) override {
    const auto j = static_cast<std::uint32_t>(tag);
    Job& job = jobs_[j];
    job.done += std::min(spec_.request, spec_.block - job.done);
    if (job.done < spec_.block) return next_request(j);
    latencies_.record(static_cast<std::uint64_t>(engine_.now() - job.started));
    issue(j);
  }

  sim::Engine& engine_;
  EmulatedMachine& m_;
  ModelFioSpec spec_;
  sim::Time overhead_;
  sim::RandomStream rng_;
  std::vector<Job> jobs_;
  std::vector<std::uint32_t> large_files_;  // the files that hold a block, once the draws missed
  FioLatencies latencies_;
};

// Bin i's lowest value and width: i itself below 2^kExactBits, then
// 2^(kExactBits - 1) bins a doubling.
constexpr unsigned kExact = FioLatencies::kExactBits;
constexpr std::uint64_t kHalf = std::uint64_t{1} << (kExact - 1);

std::size_t bin_of(std::uint64_t ns) {
  if (ns < 2 * kHalf) return static_cast<std::size_t>(ns);
  const unsigned e = static_cast<unsigned>(std::bit_width(ns)) - 1;  // 2^e <= ns < 2^(e+1), e >= kExact
  const unsigned shift = e - (kExact - 1);
  return static_cast<std::size_t>(2 * kHalf + (e - kExact) * kHalf + ((ns >> shift) - kHalf));
}

double bin_middle(std::size_t bin) {
  if (bin < 2 * kHalf) return static_cast<double>(bin);
  const std::uint64_t j = bin - 2 * kHalf;
  const unsigned shift = static_cast<unsigned>(j / kHalf) + 1;
  const std::uint64_t low = (kHalf + j % kHalf) << shift;
  return static_cast<double>(low) + static_cast<double>((std::uint64_t{1} << shift) - 1) / 2;
}
}  // namespace

void FioLatencies::record(std::uint64_t ns) {
  const std::size_t bin = bin_of(ns);
  if (bin >= counts_.size()) counts_.resize(bin + 1, 0);
  ++counts_[bin];
  min_ns_ = count_ == 0 ? ns : std::min(min_ns_, ns);
  max_ns_ = std::max(max_ns_, ns);
  ++count_;
  sum_ns_ += ns;
}

double FioLatencies::percentile_ns(double p) const {
  if (count_ == 0) return 0;
  const auto rank = std::min(static_cast<std::uint64_t>(p / 100.0 * static_cast<double>(count_ - 1) + 0.5), count_ - 1);
  std::uint64_t seen = 0;
  for (std::size_t bin = 0; bin < counts_.size(); ++bin) {
    seen += counts_[bin];
    if (seen > rank)
      return std::clamp(bin_middle(bin), static_cast<double>(min_ns_), static_cast<double>(max_ns_));
  }
  return static_cast<double>(max_ns_);
}

FioFigures model_fio(const models::Scenario& sc, const ModelFioSpec& spec) {
  sim::Engine engine;
  EmulatedMachine machine(sc, engine);
  // Every job would stop before its first read (the figures all zeros).
  if (const std::uint64_t largest = machine.files().largest_file(); largest < spec.block)
    throw common::BadInput("--bs " + std::to_string(spec.block) +
                           ": no file of the scenario's data set holds one block of that size (its largest file is " +
                           std::to_string(largest) + " bytes)");
  Readers readers(engine, machine, spec);
  readers.start();
  engine.run_until(sim::from_seconds_ceil(spec.seconds));
  const FioLatencies& lat = readers.latencies();
  FioFigures f;
  f.reads = lat.count();
  f.iops = static_cast<double>(lat.count()) / spec.seconds;
  f.mean_us = lat.mean_ns() / 1000.0;
  f.p50_us = lat.percentile_ns(50) / 1000.0;
  f.p90_us = lat.percentile_ns(90) / 1000.0;
  f.p99_us = lat.percentile_ns(99) / 1000.0;
  return f;
}

}  // namespace testbed::disk
