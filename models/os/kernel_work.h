// CPU time the kernel spends on reads into the page cache (page allocation,
// memory-cgroup charge and reclaim, building the bios, I/O completion),
// taken from the host's CPUs so that everyone else runs slower.
//
// With processor sharing the whole is a job of its own, charged to no task,
// that nobody waits for.
//
// With a kernel scheduler it is split where the kernel runs it:
//  - the reader's part (cpu.cache_fill_reader_byte; all of cache_fill_byte
//    when the profile does not split it) runs in the task whose sendfile()
//    starts the read, in its own burst (sendfile.h, reader_fill_s());
//  - the rest is the block completion, run here in interrupt context
//    (Cpu::run_irq()) on the CPU that takes it. The device's IRQ
//    (virtblk_done(), nvme_irq()) calls blk_mq_complete_request():
//    blk_mq_complete_request_remote() (block/blk-mq.c) completes a request
//    in hardirq on that CPU when its hardware queue serves only that CPU, or
//    raises BLOCK_SOFTIRQ there (one hardware queue for all CPUs, as this
//    machine's virtio-blk: /sys/block/vda/mq holds one), or sends it to the
//    submitting CPU (rq->mq_ctx->cpu) when that CPU shares no cache with
//    the IRQ's (QUEUE_FLAG_SAME_COMP, rq_affinity = 1). With one queue per
//    CPU and managed IRQ affinity (NVMe, multi-queue virtio-blk) the IRQ
//    comes to the submitting CPU, which is where the model runs it by
//    default: the CPU the submitting task was on when it submitted. With one
//    hardware queue ([block] irq_cpu names the CPU its IRQ's
//    effective_affinity_list holds) the completion stays on that CPU when it
//    shares a last-level cache with the submitter (one socket), so the model
//    runs it there (rq_affinity = 2, QUEUE_FLAG_SAME_FORCE, and CPUs on
//    other sockets would send it back to the submitter: not modelled).
//    blk_done_softirq() -> the driver's
//    complete -> blk_mq_end_request() -> bio_endio() -> the filesystem's
//    read end_io (mpage_end_io() / mpage_read_end_io()) -> folio_end_read(),
//    which marks the folios uptodate and unlocks them, waking the tasks
//    asleep in folio_wait_bit_common(): the reader's pages are there only
//    once the completion's work has run, so the page cache is told
//    (fill_done()) at its end, and the reader stays in D until then.
//    The measured rest also holds kworkers' and kswapd's time, which the
//    calibration cannot tell apart from the completion's: it runs as
//    completion work too (on the same CPU, ahead of its threads, where a
//    kworker would be scheduled fairly).
// Either way total_s() counts the whole, for the report.
#pragma once
#include <cstdint>

#include "models/os/cpu.h"
#include "models/os/host.h"
#include "models/os/page_cache.h"
#include "models/os/task_states.h"

namespace models {

// KernelWork's irq_cpu: the completion runs where each read was submitted.
inline constexpr std::uint32_t kAnyCpu = UINT32_MAX;

class KernelWork final : public CacheFillSink, public sim::FairShareListener {
 public:
  KernelWork(Cpu& cpu, TaskStates& tasks, PageCache& cache, const CpuCosts& costs, std::uint32_t irq_cpu = kAnyCpu)
      : cpu_(cpu),
        tasks_(tasks),
        cache_(cache),
        cache_fill_byte_(costs.cache_fill_byte),
        outside_byte_(costs.cache_fill_byte - reader_fill_byte(costs)),
        irq_cpu_(irq_cpu) {}

  // The device's IRQ CPU, or blk-mq's software queue of the submitting CPU (rq->mq_ctx->cpu).
  std::uint32_t submitted(std::uint32_t task) override {
    if (irq_cpu_ != kAnyCpu) return irq_cpu_;
    const std::uint32_t cpu = task == kNoTask ? UINT32_MAX : tasks_.cpu_of(task);
    return cpu == UINT32_MAX ? 0 : cpu;
  }

  bool filled(std::uint64_t bytes, std::uint32_t cpu, std::uint64_t tag) override {
    if (cache_fill_byte_ <= 0) return false;
    const double work = cache_fill_byte_ * static_cast<double>(bytes);
    total_s_ += work;
    if (cpu_.bursts_overlap()) {
      cpu_.run(0, work, this, 0);  // processor sharing: threads are not told apart
      return false;
    }
    const double completion = outside_byte_ * static_cast<double>(bytes);
    if (completion <= 0) return false;  // all of it ran in the reader
    completion_s_ += completion;
    cpu_.run_irq(cpu, completion, this, tag);
    return true;
  }
  double total_s() const { return total_s_; }            // CPU time of page-cache fills so far
  double completion_s() const { return completion_s_; }  // ... of it, outside the readers (begun)
  void on_share_milestone(std::uint32_t, std::uint64_t tag, double) override {
    if (!cpu_.bursts_overlap()) cache_.fill_done(tag);
  }

 private:
  Cpu& cpu_;
  TaskStates& tasks_;
  PageCache& cache_;
  double cache_fill_byte_;
  double outside_byte_;
  std::uint32_t irq_cpu_;
  double total_s_ = 0;
  double completion_s_ = 0;
};

}  // namespace models
