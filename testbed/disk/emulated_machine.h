// The scenario's disk and data set as the simulator builds them (the same
// calls as models/scenario/world.cpp: make_disks, the page cache the
// Filesystem is placed through, ext4's layout, make_filesystem), without the
// rest of the world: the device whose reads clerk-disk times, and each
// file's path, size and place on it. The engine belongs to whoever drives
// the device (realtime_disk.h by the wall clock, model_fio.h by itself).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/hardware/block_device.h"
#include "models/os/filesystem.h"
#include "models/os/page_cache.h"
#include "models/scenario/scenario.h"
#include "models/scenario/world_files.h"
#include "sim/engine.h"

namespace testbed::disk {

// One node of the tree clerk-disk shows: inode numbers are indexes + 1
// (FUSE_ROOT_ID, 1, is the root).
struct Node {
  std::uint64_t parent = 0;  // inode
  bool dir = true;
  std::uint32_t file = 0;    // the data set's file id (files only)
  std::uint64_t size = 0;    // bytes (files only)
  std::uint64_t key = 0;     // content.h's path_key (files only)
  std::uint64_t model_key = 0;  // the model's key of this component (Filesystem::components; 0: the root)
  std::string name;
  std::unordered_map<std::string, std::uint64_t> children;  // name -> inode (directories only)
  std::vector<std::string> order;                           // children's names as readdir lists them
};

class EmulatedMachine {
 public:
  EmulatedMachine(const models::Scenario& sc, sim::Engine& engine);

  models::BlockDevice& device() { return *disks_.device; }
  const models::Filesystem& files() const { return *files_; }
  std::uint64_t device_offset(std::uint32_t file) const { return files_->offset(file); }
  // The device's readahead (the profile's read_ahead_kb, as bytes).
  std::uint64_t readahead_bytes() const { return disks_.device->readahead_bytes(); }
  // The largest request the block layer sends the device (max_sectors_kb).
  std::uint64_t max_request_bytes() const { return max_request_; }

  // The buffer cache and ext4's layout of the tree, for the metadata
  // reads of a lookup (metadata.h); the page cache also holds clerk-disk's
  // view of the data the kernel caches (cache_pressure.h).
  models::PageCache& cache() { return *cache_; }
  const models::Ext4Layout& layout() const { return *metadata_.layout; }
  // The model's dentry and inode caches, whose shrinker runs on that page
  // cache's reclaim (metadata.h: Ext4Inodes).
  models::VfsCache& vfs() { return *metadata_.vfs; }

  const Node* node(std::uint64_t ino) const { return ino >= 1 && ino <= nodes_.size() ? &nodes_[ino - 1] : nullptr; }
  std::uint64_t child(std::uint64_t ino, const std::string& name) const;
  std::size_t nodes() const { return nodes_.size(); }
  // The inode of a model key (0: none).
  std::uint64_t ino_of_key(std::uint64_t model_key) const;

 private:
  void build_tree();

  models::MachineDisks disks_;
  std::unique_ptr<models::PageCache> cache_;
  models::MetadataCaches metadata_;
  std::unique_ptr<models::Filesystem> files_;
  std::uint64_t max_request_;
  std::vector<Node> nodes_;
  std::unordered_map<std::uint64_t, std::uint64_t> ino_of_key_;
};

}  // namespace testbed::disk
