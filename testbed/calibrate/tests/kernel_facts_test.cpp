// The kernel facts calibrate writes into a profile, read from hand-made
// /proc and /sys trees: this machine's kind (6.18, EEVDF, debugfs locked),
// the 2015 server's kind (3.13, CFS sysctls, two sockets with SMT), and a
// kernel that shows nothing (the documented defaults).
#include <zlib.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "testbed/calibrate/kernel_facts.h"
#include "common/tests/fake_tree.h"

using namespace testbed::calibrate;
using common::test::FakeTree;

namespace {

void write_gz(const std::string& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb");
  REQUIRE(f);
  REQUIRE(gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  gzclose(f);
}

// CPUs 0..n-1 online; cpu c in package c / per_package, core (c % per_package) % cores_per_package.
void put_topology(const FakeTree& tree, unsigned n, unsigned per_package, unsigned cores_per_package) {
  tree.write("/sys/devices/system/cpu/online", fmt::format("0-{}\n", n - 1));
  for (unsigned c = 0; c < n; ++c) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu{}/topology/", c);
    tree.write(dir + "physical_package_id", fmt::format("{}\n", c / per_package));
    tree.write(dir + "core_id", fmt::format("{}\n", (c % per_package) % cores_per_package));
  }
}

}  // namespace

TEST_CASE("sysctl factor: 1 + ilog2(min(CPUs, 8)), or linear, or none", "[kernel_facts]") {
  CHECK(sysctl_factor(1, "log") == 1);
  CHECK(sysctl_factor(2, "log") == 2);
  CHECK(sysctl_factor(3, "log") == 2);
  CHECK(sysctl_factor(4, "log") == 3);
  CHECK(sysctl_factor(7, "log") == 3);
  CHECK(sysctl_factor(8, "log") == 4);
  CHECK(sysctl_factor(36, "log") == 4);
  CHECK(sysctl_factor(4, "linear") == 4);
  CHECK(sysctl_factor(36, "linear") == 8);
  CHECK(sysctl_factor(36, "none") == 1);
  CHECK(count_cpu_list("0-3,8,10-11\n") == 7);
  CHECK(count_cpu_list("") == 0);
  // Hostile lists end, and name nothing (fuzz_proc): a range to the largest
  // unsigned wrapped its counter, numbers too large threw out_of_range.
  CHECK(count_cpu_list("4294967294-4294967295") == 2);
  CHECK(count_cpu_list("99999999999999999999") == 0);
  CHECK(count_cpu_list("3-1") == 0);
  CHECK(count_cpu_list("0-x") == 0);
  int major = 0, minor = 0;
  CHECK(parse_release("6.18.44-fc-v782", major, minor));
  CHECK(major == 6);
  CHECK(minor == 18);
  CHECK_FALSE(parse_release("linux", major, minor));
}

TEST_CASE("a 6.18 kernel with debugfs locked down: EEVDF, slice from /proc/self/sched, HZ from config.gz", "[kernel_facts]") {
  FakeTree tree;
  tree.write("/proc/sys/kernel/osrelease", "6.18.44-fc-v782\n");
  put_topology(tree, 2, 2, 2);
  tree.write("/sys/kernel/debug/sched/base_slice_ns", "");  // lockdown: the read fails, as empty
  tree.write("/proc/self/sched", "cat (7891, #threads: 1)\n---\nse.load.weight   :   1048576\n"
                                 "se.slice                                     :              1400000\n");
  write_gz(tree.root() + "/proc/config.gz", "# comment\nCONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_SCHED_INFO=y\n");
  tree.write("/proc/sys/vm/vfs_cache_pressure", "100\n");
  tree.write("/sys/block/vda/queue/nr_requests", "256\n");
  tree.write("/sys/block/vda/queue/read_ahead_kb", "8192\n");
  tree.write("/sys/block/vda/queue/max_sectors_kb", "1280\n");
  tree.write("/sys/block/vda/queue/scheduler", "none [mq-deadline] kyber bfq\n");
  tree.write("/sys/fs/ext4/vda/inode_readahead_blks", "32\n");
  const auto files = common::files_under(tree.root());
  const KernelFacts k = read_kernel_facts(*files, "vda", "vda");
  CHECK(k.release == "6.18.44-fc-v782");
  CHECK(k.sched.policy == "eevdf");
  CHECK(k.sched.factor == 2);
  CHECK(k.sched.base_slice_ns == 700000);  // 1.4 ms / (1 + ilog2(2))
  CHECK(k.sched.source.find("se.slice = 1400000 / 2") != std::string::npos);
  CHECK(k.sched.latency_ns == 0);
  CHECK(k.hz == 250);
  CHECK(k.hz_source == "/proc/config.gz CONFIG_HZ");
  CHECK(k.vfs_cache_pressure == 100);
  CHECK(k.queue.nr_requests == 256);
  CHECK(k.queue.read_ahead_kb == 8192);
  CHECK(k.queue.max_sectors_kb == 1280);
  CHECK(k.queue.scheduler == "mq-deadline");
  CHECK(k.inode_readahead_blks == 32);
  CHECK(k.topology.logical == 2);
  CHECK(k.topology.sockets == 1);
  CHECK(k.topology.cores_per_socket == 2);
  CHECK(k.topology.threads_per_core == 1);
}

TEST_CASE("the preemption model: debugfs first, then preempt= on the command line, then the config", "[kernel_facts]") {
  const std::string config = "CONFIG_PREEMPT_BUILD=y\nCONFIG_PREEMPT_NONE=y\n# CONFIG_PREEMPT_LAZY is not set\n"
                             "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_HZ=250\n";
  std::string source;
  {
    FakeTree tree;  // this machine as an unprivileged user sees it
    tree.write("/proc/cmdline", "console=ttyS0 root=/dev/vda rw\n");  // before write_gz: it makes /proc
    write_gz(tree.root() + "/proc/config.gz", config);
    const auto files = common::files_under(tree.root());
    CHECK(read_preempt(*files, "6.18.44-fc-v782", source) == "none");
    CHECK(source == "/proc/config.gz CONFIG_PREEMPT_NONE=y, CONFIG_PREEMPT_DYNAMIC=y and no preempt= on /proc/cmdline");
  }
  {
    FakeTree tree;
    tree.write("/proc/cmdline", "root=/dev/vda preempt=full quiet\n");
    write_gz(tree.root() + "/proc/config.gz", config);
    const auto files = common::files_under(tree.root());
    CHECK(read_preempt(*files, "6.18.44-fc-v782", source) == "full");
    CHECK(source.rfind("/proc/cmdline preempt=full", 0) == 0);
  }
  {
    FakeTree tree;
    tree.write("/proc/cmdline", "preempt=full\n");
    write_gz(tree.root() + "/proc/config.gz", config);
    tree.write("/sys/kernel/debug/sched/preempt", "none (voluntary) full lazy\n");  // changed at run time
    const auto files = common::files_under(tree.root());
    CHECK(read_preempt(*files, "6.18.44-fc-v782", source) == "voluntary");
    CHECK(source == "/sys/kernel/debug/sched/preempt");
  }
  {
    FakeTree tree;  // 3.13: no PREEMPT_DYNAMIC, a preempt= word means nothing to it
    tree.write("/boot/config-3.13.0-49-generic", "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_HZ=250\n");
    tree.write("/proc/cmdline", "preempt=full\n");
    const auto files = common::files_under(tree.root());
    CHECK(read_preempt(*files, "3.13.0-49-generic", source) == "voluntary");
    CHECK(source == "/boot/config-3.13.0-49-generic CONFIG_PREEMPT_VOLUNTARY=y");
  }
  {
    FakeTree tree;
    const auto files = common::files_under(tree.root());
    CHECK(read_preempt(*files, "6.18.44-fc-v782", source).empty());
    CHECK(source.rfind("not discoverable", 0) == 0);
  }
}

TEST_CASE("a 3.13 kernel: CFS from its sysctls, HZ from /boot, two sockets with SMT", "[kernel_facts]") {
  FakeTree tree;
  tree.write("/proc/sys/kernel/osrelease", "3.13.0-49-generic\n");
  put_topology(tree, 16, 8, 4);  // 2 packages x 4 cores x 2 threads
  // The sysctls as 3.13 shows them on 16 CPUs: factor 1 + ilog2(8) = 4.
  tree.write("/proc/sys/kernel/sched_latency_ns", "24000000\n");
  tree.write("/proc/sys/kernel/sched_min_granularity_ns", "3000000\n");
  tree.write("/proc/sys/kernel/sched_wakeup_granularity_ns", "4000000\n");
  tree.write("/proc/sys/kernel/sched_tunable_scaling", "1\n");
  tree.write("/boot/config-3.13.0-49-generic", "CONFIG_HZ_250=y\nCONFIG_HZ=250\n");
  tree.write("/proc/sys/vm/vfs_cache_pressure", "50\n");
  tree.write("/sys/block/sda/queue/nr_requests", "128\n");
  tree.write("/sys/block/sda/queue/scheduler", "noop [deadline] cfq\n");
  const auto files = common::files_under(tree.root());
  tree.write("/sys/fs/ext4/sda2/inode_readahead_blks", "64\n");  // the partition's, not the disk's
  const KernelFacts k = read_kernel_facts(*files, "sda", "sda2");
  CHECK(k.sched.policy == "cfs");
  CHECK(k.sched.factor == 4);
  CHECK(k.sched.latency_ns == 6000000);
  CHECK(k.sched.min_granularity_ns == 750000);
  CHECK(k.sched.wakeup_granularity_ns == 1000000);
  CHECK(k.sched.base_slice_ns == 0);
  CHECK(k.hz == 250);
  CHECK(k.hz_source == "/boot/config-3.13.0-49-generic CONFIG_HZ");
  CHECK(k.vfs_cache_pressure == 50);
  CHECK(k.queue.nr_requests == 128);
  CHECK(k.queue.scheduler == "deadline");
  CHECK(k.inode_readahead_blks == 64);
  CHECK(k.topology.sockets == 2);
  CHECK(k.topology.cores_per_socket == 4);
  CHECK(k.topology.threads_per_core == 2);
}

TEST_CASE("a kernel that shows nothing: fair.c's defaults for its version, HZ unknown", "[kernel_facts]") {
  FakeTree tree;
  tree.write("/proc/sys/kernel/osrelease", "6.8.0-31-generic\n");
  put_topology(tree, 4, 4, 4);
  const auto files = common::files_under(tree.root());
  const KernelFacts k = read_kernel_facts(*files, "nvme0n1", "nvme0n1p1");
  CHECK(k.sched.policy == "eevdf");
  CHECK(k.sched.factor == 3);
  CHECK(k.sched.base_slice_ns == 750000);  // 6.6..6.14
  CHECK(k.sched.source.find("default") != std::string::npos);
  CHECK(k.hz == 0);
  CHECK(k.vfs_cache_pressure == 0);
  CHECK(k.queue.nr_requests == 0);
  CHECK(k.inode_readahead_blks == 0);
  // 6.15 on: 0.70 ms.
  FakeTree newer;
  const auto none = common::files_under(newer.root());
  CHECK(read_sched(*none, 6, 15, 8).base_slice_ns == 700000);
  CHECK(read_sched(*none, 6, 5, 8).policy == "cfs");
  CHECK(read_sched(*none, 6, 5, 8).latency_ns == 6000000);
  CHECK(gunzip("not gzip").empty());
}

TEST_CASE("a one-queue virtio-blk device: its completions' CPU is its queue IRQ's effective affinity", "[kernel_facts]") {
  FakeTree tree;
  tree.write("/sys/block/vda/mq/0/cpu_list", "0, 1\n");
  tree.write("/sys/block/vda/queue/rq_affinity", "1\n");
  tree.write("/sys/bus/virtio/devices/virtio0/features", "0\n");  // a balloon: no block/
  tree.write("/sys/bus/virtio/devices/virtio1/block/vda/size", "0\n");
  tree.write("/proc/interrupts", "           CPU0       CPU1\n"
                                 " 35:          0          1 PCI-MSIX-0000:00:02.0   0-edge      virtio1-config\n"
                                 " 36:          0    1259632 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
                                 " 39:        632          0 PCI-MSIX-0000:00:03.0   2-edge      virtio2-output.0\n");
  tree.write("/proc/irq/36/effective_affinity_list", "1\n");
  const auto files = common::files_under(tree.root());
  QueueFacts q = read_queue(*files, "vda");
  CHECK(q.hw_queues == 1);
  CHECK(q.rq_affinity == 1);
  CHECK(q.irq_cpu == 1);
  CHECK(q.irq_source.find("IRQ 36 (virtio1-req.0)") != std::string::npos);
  // Two hardware queues: each CPU's own, no single IRQ CPU.
  tree.write("/sys/block/vda/mq/1/cpu_list", "1\n");
  q = read_queue(*files, "vda");
  CHECK(q.hw_queues == 2);
  CHECK(q.irq_cpu == -1);
}

TEST_CASE("a one-queue device whose IRQ spans CPUs, or is not virtio: no completions' CPU", "[kernel_facts]") {
  FakeTree tree;
  tree.write("/sys/block/vda/mq/0/cpu_list", "0, 1\n");
  tree.write("/sys/bus/virtio/devices/virtio1/block/vda/size", "0\n");
  tree.write("/proc/interrupts", " 36:          0    1259632 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n");
  tree.write("/proc/irq/36/effective_affinity_list", "0-1\n");
  const auto files = common::files_under(tree.root());
  CHECK(read_queue(*files, "vda").irq_cpu == -1);
  CHECK(read_queue(*files, "sda").irq_cpu == -1);
  CHECK(read_queue(*files, "sda").hw_queues == 0);
}
