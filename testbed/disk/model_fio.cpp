#include "model_fio.h"

#include <algorithm>
#include <vector>

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
  std::vector<double>& latencies_us() { return latencies_us_; }

 private:
  struct Job {
    sim::Time started = 0;
    std::uint64_t at = 0;    // the block's device offset
    std::uint64_t done = 0;  // its bytes read so far
  };

  // A block-aligned block of a random file large enough to hold one.
  void issue(std::uint32_t j) {
    const models::Filesystem& fs = m_.files();
    std::uint32_t file = 0;
    std::uint64_t blocks = 0;
    for (int tries = 0; tries < 1000 && blocks == 0; ++tries) {
      file = static_cast<std::uint32_t>(rng_.next_u64() % fs.files());
      blocks = fs.file_size(file) / spec_.block;
    }
    if (blocks == 0) return;  // no file holds a block: the job stops
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
    latencies_us_.push_back(static_cast<double>(engine_.now() - job.started) / 1000.0);
    issue(j);
  }

  sim::Engine& engine_;
  EmulatedMachine& m_;
  ModelFioSpec spec_;
  sim::Time overhead_;
  sim::RandomStream rng_;
  std::vector<Job> jobs_;
  std::vector<double> latencies_us_;
};

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto i = static_cast<std::size_t>(p / 100.0 * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}
}  // namespace

FioFigures model_fio(const models::Scenario& sc, const ModelFioSpec& spec) {
  sim::Engine engine;
  EmulatedMachine machine(sc, engine);
  Readers readers(engine, machine, spec);
  readers.start();
  engine.run_until(sim::from_seconds_ceil(spec.seconds));
  std::vector<double> lat = readers.latencies_us();
  std::sort(lat.begin(), lat.end());
  FioFigures f;
  f.reads = lat.size();
  f.iops = static_cast<double>(lat.size()) / spec.seconds;
  double sum = 0;
  for (const double v : lat) sum += v;
  f.mean_us = lat.empty() ? 0 : sum / static_cast<double>(lat.size());
  f.p50_us = percentile(lat, 50);
  f.p90_us = percentile(lat, 90);
  f.p99_us = percentile(lat, 99);
  return f;
}

}  // namespace testbed::disk
