// The kernel's CPU time per byte read from disk into the page cache (page
// allocation, memory-cgroup charge and reclaim, I/O completion in softirq and
// kworkers): the whole machine's busy time over a cold read of a file,
// inside a memory cgroup smaller than the file (so reclaim runs as under a
// server's cache cap), less the same for a read of cached data (the copy
// to user space, which a server's sendfile() does not make).
//
// The reader's own share: the reading thread's CPU time over the same two
// passes (clock_gettime(CLOCK_THREAD_CPUTIME_ID): task_sched_runtime(), the
// thread's se.sum_exec_runtime up to now, which is /proc/thread-self/schedstat's
// first field plus the running slice), fitted the same way. It is what runs
// in the reader's context: readahead's page allocation, the memory cgroup's
// charge and the direct reclaim it triggers (filemap_add_folio() ->
// mem_cgroup_charge() -> try_charge()), building and submitting the bios.
// What it leaves out runs elsewhere: the block completion (the device's IRQ
// and BLOCK_SOFTIRQ, blk_done_softirq() -> bio_endio() -> folio_end_read()),
// kworkers, kswapd. One caveat, from kernel/sched/core.c
// update_rq_clock_task(): only with CONFIG_IRQ_TIME_ACCOUNTING is the time
// of an interrupt or softirq taken while the reader is on its CPU
// subtracted from the reader's clock_task; without it (this machine's
// 6.18 kernel: /proc/config.gz, TICK_CPU_ACCOUNTING) that time is counted
// in the reader's sum_exec_runtime, so completions that land on the
// reader's CPU while it runs count as the reader's. A synchronous reader
// is mostly asleep in D when its completions come, so this share is an
// upper bound that is close when the device's IRQ is on another CPU.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace testbed::calibrate {

struct CacheFill {
  double per_byte_s = 0;        // the fitted cost
  double cold_busy_s = 0;       // machine busy CPU time over the cold pass
  double warm_busy_s = 0;       // ... over the cached pass
  double reader_per_byte_s = 0; // the reading thread's own share of per_byte_s
  double cold_reader_s = 0;     // the reading thread's CPU time over the cold pass
  double warm_reader_s = 0;     // ... over the cached pass
  std::uint64_t cold_bytes = 0, warm_bytes = 0;
  std::uint64_t cgroup_limit = 0;  // the page cache's share; 0: no memory cgroup could be made
  std::uint64_t reader_allowance = 0;  // added to the cgroup's limit for the reader (reader_allowance())
  std::string note;
};

// Machine-wide busy CPU seconds so far (/proc/stat: all but idle and iowait).
double machine_busy_s();
double parse_machine_busy_s(const std::string& proc_stat_first_line, long ticks_per_s);

// Fits per_byte_s and reader_per_byte_s from the passes' figures: cold per
// byte less warm per byte, never below 0; the reader's share never above
// the whole (noise between two clocks: `note` says so).
void fit_cache_fill(CacheFill& r);

// The calling thread's CPU time so far (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_s();

// /proc/self/status's VmRSS in bytes; nothing when the line is missing or
// malformed.
std::optional<std::uint64_t> parse_vm_rss_bytes(const std::string& proc_status);
// What the fill cgroup adds to the page cache's share for the reading process
// itself: its resident set when it moves in, and 64 MiB for what it allocates
// there. Memory it allocates after moving in is charged to the cgroup, and a
// cap that left it no room would make the kernel's memcg OOM killer end the
// reader (an ASan build, which allocates shadow and quarantine memory as it
// runs, was killed so at 158 MB resident in `calibrate --quick`'s 64 MiB
// cgroup); realrun gives the server the same kind of allowance beside its
// page cache.
std::uint64_t reader_allowance(std::optional<std::uint64_t> resident_bytes);

// Reads `file` (at least 4x `cgroup_limit` bytes) cold inside a memory cgroup
// of `cgroup_limit` for the page cache plus reader_allowance(), then its first `cgroup_limit / 2` bytes twice, timing
// the second pass. Needs root (drop_caches).
CacheFill measure_cache_fill(const std::string& file, std::uint64_t cgroup_limit);

}  // namespace testbed::calibrate
