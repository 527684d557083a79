// A scenario: the hardware, the kernel settings, the NGINX configuration,
// the files served, the clients, and the documented figures to compare
// with. Loaded from TOML (see config_loader.h).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "models/clients/wrk.h"
#include "models/hardware/block_queue.h"
#include "models/hardware/nic.h"
#include "models/os/filesystem.h"
#include "models/os/host.h"
#include "models/scenario/disk_spec.h"
#include "models/scenario/kernel_profile.h"
#include "models/scenario/warmup.h"
#include "models/server/nginx_config.h"

namespace models {

struct HardwareSpec {
  std::uint32_t logical_cpus = 1;
  CpuCosts costs;
  std::uint64_t page_cache_bytes = 1ULL << 30;
  std::uint64_t cache_unit_bytes = 64 * 1024;
  // [disk]: the spec of its `type` (disk_kinds.h's registry), and where it
  // is mounted ([disk] mount; "/" holds the data set's root).
  DiskSpec disk;
  std::string disk_mount = "/";
  // [disks.NAME]: more independent disks of the machine, each with [disk]'s
  // keys and its own mount point (models/hardware/disk_set.h); the files of
  // a proxy_cache_path under a mount live on that disk.
  struct NamedDisk {
    std::string name;
    std::string mount;
    DiskSpec spec;
  };
  std::vector<NamedDisk> disks;
  // [block]: a request queue in front of each spinning drive (of the kinds
  // built of them; the other devices model their own queueing).
  bool block_queue = true;
  // [block] irq_cpu: the CPU that takes the data device's completions
  // (kernel_work.h); -1: the CPU that submitted each read.
  std::int32_t block_irq_cpu = -1;
  BlockQueueSpec block;
  // [md] read_balance: which kernel's raid10 read_balance() an md array of
  // the scenario follows (read_balance_choices(), md_layer.h); RAID1 follows raid1.c's own.
  std::string md_read_balance = "3.x";
  NicSpec nic;
  double one_way_latency_s = 50e-6;
  CpuTopology topology;  // [cpu] sockets, cores_per_socket, threads_per_core
};

struct Expectation {
  std::string metric;        // a dotted path into the run's JSON
  double min = -INFINITY;
  double max = INFINITY;
  double documented = NAN;   // the published figure, when there is one number
  std::string note;          // what was documented, in words
  std::string known_miss;    // non-empty: a documented figure the model does not reach, and why
  std::string relative_to;   // non-empty: min/max/documented bound the ratio to this scenario's figure
  std::string file;
  int line = 0;
};

// Where a key was given (file and line), for errors found when a run is
// built rather than when the file is read (the sizes drawn from a mix
// depend on the run's seed).
struct KeyOrigin {
  std::string file;
  int line = 0;
};

struct Scenario {
  std::string file;
  // Every file the scenario was read from, once each: `file`, its includes
  // depth first (LayeredToml::files), then the access logs its clients
  // replay. Empty for a scenario given as text.
  std::vector<std::string> files;
  std::string name;
  std::string description;
  std::uint64_t seed = 1;
  double duration_s = 10;
  WarmupSpec warmup;  // the load before the measured window (warmup.h)
  HardwareSpec hardware;
  KernelSpec kernel;
  KernelProfile kernel_profile;  // what the hardware profile names of its kernel (kernel_profile.h)
  NginxConfig nginx;
  FilesystemSpec filesystem;
  std::string root = "/";
  std::vector<std::string> preload;  // paths cached before the run starts
  double preload_fraction = 0;       // this share of the files (the first ones) cached at the start
  KeyOrigin files_at;                // [dataset] files
  KeyOrigin preload_at;              // [dataset] preload_fraction, else preload
  std::vector<WrkGroupSpec> clients;
  std::vector<Expectation> expect;
};

}  // namespace models
