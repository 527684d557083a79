// What a hardware profile says of its kernel beside the CPU scheduler (which
// is KernelSpec::sched and HardwareSpec::topology), as `clerk calibrate`
// reads it from the machine (testbed/calibrate/kernel_facts.h):
// vm.vfs_cache_pressure, the dentry and inode slab objects and ext4's
// inode_readahead_blks. The loader checks every value (limits.h); a profile
// that names none keeps these defaults, the kernel's own.
//
// Keys (config_loader.cpp, read_profile_kernel):
//   [kernel] vfs_cache_pressure, dentry_objsize, inode_objsize,
//            inode_readahead_blks
// The data device's request queue ([block] nr_requests, scheduler,
// max_sectors_kb, from /sys/block/<disk>/queue/) is HardwareSpec::block, the
// block layer's own (models/hardware/block_queue.h).
#pragma once
#include <cstdint>

namespace models {

struct KernelProfile {
  std::uint32_t vfs_cache_pressure = 100;  // Documentation/admin-guide/sysctl/vm.rst default
  std::uint64_t dentry_objsize = 192;      // struct dentry on x86-64 (/proc/slabinfo, 6.x and 3.13)
  std::uint64_t inode_objsize = 1000;      // struct ext4_inode_info with its inode, about 1 KiB (slabinfo)
  std::uint32_t inode_readahead_blks = 32; // EXT4_DEF_INODE_READAHEAD_BLKS (fs/ext4/ext4.h)
};

}  // namespace models
