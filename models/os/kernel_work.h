// CPU time the kernel spends on behalf of no process (kworkers, softirq):
// taken from the host's CPUs, so everyone else runs slower, while nobody
// waits for it to finish.
#pragma once
#include <cstdint>

#include "models/os/page_cache.h"
#include "sim/fair_share.h"

namespace models {

class KernelWork final : public CacheFillSink, public sim::FairShareListener {
 public:
  KernelWork(sim::FairShare& cpu, double cache_fill_byte) : cpu_(cpu), cache_fill_byte_(cache_fill_byte) {}

  void filled(std::uint64_t bytes) override {
    if (cache_fill_byte_ <= 0) return;
    const double work = cache_fill_byte_ * static_cast<double>(bytes);
    total_s_ += work;
    cpu_.add(work, this, 0);
  }
  double total_s() const { return total_s_; }  // CPU time handed to the CPUs so far
  void on_share_milestone(std::uint32_t, std::uint64_t, double) override {}

 private:
  sim::FairShare& cpu_;
  double cache_fill_byte_;
  double total_s_ = 0;
};

}  // namespace models
