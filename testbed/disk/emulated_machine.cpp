#include "emulated_machine.h"

#include "content.h"
#include "models/scenario/stream_ids.h"

namespace testbed::disk {

EmulatedMachine::EmulatedMachine(const models::Scenario& sc, sim::Engine& engine)
    : max_request_(sc.hardware.block.max_sectors_kb * 1024) {
  const models::HardwareSpec& hw = sc.hardware;
  const sim::RandomStreams streams(sc.seed);
  disks_ = models::make_disks(hw, engine, streams);
  cache_ = std::make_unique<models::PageCache>(
      *disks_.device, models::PageCacheSpec{hw.page_cache_bytes, hw.cache_unit_bytes, 1024 * 1024});
  sim::RandomStream metadata_rng = streams.stream(models::kStreamMetadata);
  const std::uint64_t write_seed = metadata_rng.next_u64();
  metadata_ = models::make_metadata_caches(sc, *disks_.device, disks_.first_capacity, *cache_, metadata_rng, write_seed);
  const models::DiskPlacement placement = models::disk_placement(sc, disks_);
  files_ = models::make_filesystem(sc, *cache_, disks_.first_capacity, metadata_, streams, &placement);
  build_tree();
}

std::uint64_t EmulatedMachine::child(std::uint64_t ino, const std::string& name) const {
  const Node* n = node(ino);
  if (!n || !n->dir) return 0;
  const auto it = n->children.find(name);
  return it == n->children.end() ? 0 : it->second;
}

std::uint64_t EmulatedMachine::ino_of_key(std::uint64_t model_key) const {
  if (model_key == 0) return 1;
  const auto it = ino_of_key_.find(model_key);
  return it == ino_of_key_.end() ? 0 : it->second;
}

// Every file's path ("/1/2/3"), its directories made on the way, each with
// the model's key of its level.
void EmulatedMachine::build_tree() {
  nodes_.push_back(Node{});  // the root, inode 1
  for (std::uint32_t f = 0; f < files_->files(); ++f) {
    const std::string path = files_->path(f);
    std::uint64_t keys[8];
    files_->components(f, keys);
    std::uint32_t level = 0;
    std::uint64_t at = 1;
    std::size_t begin = 1;
    while (begin <= path.size()) {
      std::size_t end = path.find('/', begin);
      if (end == std::string::npos) end = path.size();
      const std::string name = path.substr(begin, end - begin);
      const bool last = end == path.size();
      std::uint64_t next = child(at, name);
      if (next == 0) {
        Node n;
        n.parent = at;
        n.name = name;
        n.dir = !last;
        n.model_key = keys[level];
        if (last) {
          n.file = f;
          n.size = files_->file_size(f);
          n.key = path_key(path);
        }
        nodes_.push_back(std::move(n));
        next = nodes_.size();
        ino_of_key_.emplace(keys[level], next);
        nodes_[at - 1].children.emplace(name, next);
        nodes_[at - 1].order.push_back(name);
      }
      at = next;
      begin = end + 1;
      ++level;
    }
  }
}

}  // namespace testbed::disk
