// Everything one `clerk calibrate` run measured: the input of the profile's
// content (profile_content.cpp) and of the printed table.
#pragma once
#include <string>
#include <vector>

#include "testbed/calibrate/cache_fill.h"
#include "testbed/calibrate/cpu_costs.h"
#include "testbed/calibrate/fio_fit.h"
#include "testbed/calibrate/fio_json.h"
#include "testbed/calibrate/fio_runner.h"
#include "testbed/calibrate/herd.h"
#include "common/loopback_tcp.h"
#include "testbed/calibrate/kernel_facts.h"
#include "testbed/calibrate/loopback.h"
#include "testbed/calibrate/loopback_pacing.h"
#include "testbed/calibrate/machine_facts.h"
#include "testbed/calibrate/seq_read.h"

namespace testbed::calibrate {

struct Calibration {
  std::string date;           // UTC, "2026-11-22"
  std::string load_before, load_after;
  std::string kernel;
  std::string nginx_version;
  std::string fio_version;   // "fio-3.33"
  bool quick = false;

  unsigned logical_cpus = 0;
  CpuPlan cpu_plan;
  CpuRaw cpu_raw;                        // the experiments' medians
  CpuCostsResult cpu;                    // derived from them
  std::vector<CpuCostsResult> cpu_rounds;  // each round's own derivation: the spread

  std::vector<HerdResult> herd;  // by round: one acceptor, then several
  double wakeup_s = 0;           // the median round's

  std::uint64_t ping_round_trips = 0;
  PingPongResult ping;
  BandwidthResult loopback;
  unsigned loopback_mtu = 0;

  MemoryFacts memory;

  std::string data_dir;
  BlockDeviceFacts device;
  FioPlan fio_plan;
  std::vector<FioJob> fio;
  SsdFit ssd;
  std::vector<SeqRead> seq_runs;  // the sequential buffered read (readahead), repeated
  SeqRead seq;                    // the median of them
  SeqFit seq_fit;
  std::vector<SeqQd1> seq_qd1_runs;  // the O_DIRECT sequential read at QD1, repeated
  SeqQd1 seq_qd1;                    // the median of them (by mean latency)
  CacheFill fill;

  std::uint64_t tcp_wmem_max = 0;
  std::uint64_t pipe_size = 0;
  KernelFacts kernel_facts;  // the kernel, its scheduler, the data device's queue, the CPU topology
  // Loopback's congestion control and qdisc as the machine has them
  // (common/loopback_tcp.h).
  common::LoopbackTcp loopback_tcp;
  // Where TCP paces loopback itself, the CPU runs were made under
  // `unpaced_with` (unpaced_loopback.h) and pacing measured apart: bbr
  // against it on one connection (loopback_pacing.h). Empty: the CPU runs
  // used the machine's own setting, and nothing was measured apart.
  std::string unpaced_with;
  PacingComparison pacing;
};

}  // namespace testbed::calibrate
