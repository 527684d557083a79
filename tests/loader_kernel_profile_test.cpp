// The kernel facts a hardware profile names beside the scheduler
// (models/scenario/kernel_profile.h): every key `clerk calibrate` writes
// loads, and each is checked against its range in limits.h, a bad value
// being a ConfigError naming the key. (The scheduler's keys are
// loader_limits_test's.)
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/scenario/config_loader.h"
#include "tests/load_error.h"

namespace {

const std::string kSmall = std::string(CLERK_TEST_DATA) + "/small-hdd.toml";  // 4 logical CPUs, an HDD

std::string error_key(const std::vector<std::string>& overrides) { return tests::load_error(kSmall, overrides).key(); }

}  // namespace

TEST_CASE("loader: the kernel keys clerk calibrate writes load into Scenario::kernel_profile") {
  const models::Scenario sc = models::load_scenario(
      kSmall, {"kernel.vfs_cache_pressure=50", "kernel.dentry_objsize=192", "kernel.inode_objsize=1128",
               "kernel.inode_readahead_blks=64", "block.nr_requests=256", "block.scheduler=\"mq-deadline\"",
               "block.max_sectors_kb=1280"});
  const models::KernelProfile& k = sc.kernel_profile;
  CHECK(k.vfs_cache_pressure == 50);
  CHECK(k.dentry_objsize == 192);
  CHECK(k.inode_objsize == 1128);
  CHECK(k.inode_readahead_blks == 64);
  // The request queue's keys are the block layer's (HardwareSpec::block).
  const models::BlockQueueSpec& q = sc.hardware.block;
  CHECK(q.nr_requests == 256);
  CHECK(q.scheduler == "mq-deadline");
  CHECK(q.max_sectors_kb == 1280);
  // Not named: the kernel's defaults.
  const models::Scenario plain = models::load_scenario(kSmall);
  const models::KernelProfile& d = plain.kernel_profile;
  CHECK(d.vfs_cache_pressure == 100);
  CHECK(d.inode_readahead_blks == 32);
  CHECK(plain.hardware.block.nr_requests == 128);
  CHECK(plain.hardware.block.scheduler == "deadline");  // [block]'s default elevator (read_block)
  CHECK(plain.hardware.block.max_sectors_kb == 512);
}

TEST_CASE("loader: kernel-profile keys out of range are ConfigErrors naming the key") {
  CHECK(error_key({"kernel.vfs_cache_pressure=-1"}) == "kernel.vfs_cache_pressure");
  CHECK(error_key({"kernel.vfs_cache_pressure=2000000"}) == "kernel.vfs_cache_pressure");
  CHECK(error_key({"kernel.inode_readahead_blks=48"}) == "kernel.inode_readahead_blks");
  CHECK(error_key({"kernel.dentry_objsize=8"}) == "kernel.dentry_objsize");
  CHECK(error_key({"block.nr_requests=2"}) == "block.nr_requests");
  CHECK(error_key({"block.nr_requests=100000"}) == "block.nr_requests");  // above the 65,536 read_block allows
  CHECK(error_key({"block.scheduler=\"anticipatory\""}) == "block.scheduler");
  CHECK(error_key({"block.max_sectors_kb=2"}) == "block.max_sectors_kb");
}

TEST_CASE("loader: dataset.metadata_cached and [memory] dentry_cache are refused, naming what replaced them") {
  CHECK(error_key({"dataset.metadata_cached=true"}) == "dataset.metadata_cached");
  CHECK(error_key({"memory.dentry_cache=1000"}) == "memory.dentry_cache");
  const models::ConfigError e = tests::load_error(kSmall, {"dataset.metadata_cached=false"});
  CHECK(std::string(e.what()).find("warmup") != std::string::npos);
  CHECK(std::string(e.what()).find("vfs_cache_pressure") != std::string::npos);
}
