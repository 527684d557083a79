// CPU time the kernel spends on reads into the page cache (page allocation,
// memory-cgroup charge and reclaim, I/O completion), taken from the host's
// CPUs so that everyone else runs slower.
//
// With processor sharing it is a job of its own, charged to no task, that
// nobody waits for. With a kernel scheduler it is not run here: the task
// whose sendfile() starts the read pays it in its own burst (sendfile.h,
// reader_fill_s(): allocation and memcg reclaim run in the reader's
// context), so it shows in that task's R and delays what it does next.
// Either way total_s() counts it, for the report.
#pragma once
#include <cstdint>

#include "models/os/cpu.h"
#include "models/os/page_cache.h"

namespace models {

class KernelWork final : public CacheFillSink, public sim::FairShareListener {
 public:
  KernelWork(Cpu& cpu, double cache_fill_byte) : cpu_(cpu), cache_fill_byte_(cache_fill_byte) {}

  void filled(std::uint64_t bytes) override {
    if (cache_fill_byte_ <= 0) return;
    const double work = cache_fill_byte_ * static_cast<double>(bytes);
    total_s_ += work;
    if (cpu_.bursts_overlap()) cpu_.run(0, work, this, 0);  // processor sharing: threads are not told apart
  }
  double total_s() const { return total_s_; }  // CPU time of page-cache fills so far
  void on_share_milestone(std::uint32_t, std::uint64_t, double) override {}

 private:
  Cpu& cpu_;
  double cache_fill_byte_;
  double total_s_ = 0;
};

}  // namespace models
