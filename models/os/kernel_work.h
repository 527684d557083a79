// CPU time the kernel spends on reads into the page cache (page allocation,
// memory-cgroup charge and reclaim, I/O completion), taken from the host's
// CPUs so that everyone else runs slower, while nobody waits for it.
//
// With processor sharing it is a job of its own, charged to no task. With a
// scheduler it runs on per-CPU kernel threads at nice 0, one per CPU, taken
// in turn: the completion half of the work runs in the block softirq, which
// under load the kernel hands to ksoftirqd/N (a nice-0 CFS task per CPU,
// kernel/softirq.c: __do_softirq() defers past MAX_SOFTIRQ_RESTART or 2 ms),
// and the allocation half runs in the reading task's context, which the
// model does not tell apart from the rest of the read (a simplification: it
// competes for the CPU without blocking the reader).
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "models/os/cpu.h"
#include "models/os/page_cache.h"

namespace models {

class KernelWork final : public CacheFillSink, public sim::FairShareListener {
 public:
  KernelWork(Cpu& cpu, double cache_fill_byte, std::uint32_t cpus) : cpu_(cpu), cache_fill_byte_(cache_fill_byte) {
    if (!cpu.bursts_overlap())
      for (std::uint32_t c = 0; c < cpus; ++c) threads_.push_back(Kthread{cpu.add_thread(kNoTask, c), 0, false});
  }

  void filled(std::uint64_t bytes) override {
    if (cache_fill_byte_ <= 0) return;
    const double work = cache_fill_byte_ * static_cast<double>(bytes);
    total_s_ += work;
    if (threads_.empty()) {
      cpu_.run(0, work, this, 0);  // processor sharing: threads are not told apart
      return;
    }
    Kthread& k = threads_[next_++ % threads_.size()];
    if (k.busy) {
      k.backlog += work;
      return;
    }
    k.busy = true;
    cpu_.run(k.thread, work, this, static_cast<std::uint64_t>(&k - threads_.data()));
  }
  double total_s() const { return total_s_; }  // CPU time handed to the CPUs so far
  void on_share_milestone(std::uint32_t, std::uint64_t tag, double) override {
    if (threads_.empty()) return;
    Kthread& k = threads_[tag];
    if (k.backlog <= 0) {
      k.busy = false;
      return;
    }
    const double work = k.backlog;
    k.backlog = 0;
    cpu_.run(k.thread, work, this, tag);
  }

 private:
  struct Kthread {
    std::uint32_t thread;
    double backlog;
    bool busy;
  };
  Cpu& cpu_;
  double cache_fill_byte_;
  double total_s_ = 0;
  std::vector<Kthread> threads_;
  std::uint64_t next_ = 0;
};

}  // namespace models
