#include "testbed/realrun/block_stats.h"

#include <algorithm>
#include <sstream>

namespace testbed::realrun {
namespace {

std::vector<std::string> lines_of(const std::string& listing) {
  std::vector<std::string> out;
  std::istringstream in(listing);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

bool has_stat(const common::ProcFiles& files, const std::string& dir) {
  return parse_block_stat(files.read(dir + "/stat")).ok;
}

// The whole disk of `name`: itself when /sys/block/<name> is one, else the
// disk whose directory holds the partition (/sys/block/sda/sda1).
std::string whole_disk(const common::ProcFiles& files, const std::string& name) {
  if (has_stat(files, "/sys/block/" + name)) return name;
  for (const std::string& disk : lines_of(files.read("/sys/block/")))
    if (has_stat(files, "/sys/block/" + disk + "/" + name)) return disk;
  return {};
}

double per_s(std::uint64_t a, std::uint64_t b, double seconds) {
  return b >= a ? static_cast<double>(b - a) / seconds : 0.0;
}

std::uint64_t delta(std::uint64_t a, std::uint64_t b) { return b >= a ? b - a : 0; }

}  // namespace

BlockStat parse_block_stat(const std::string& text) {
  std::istringstream in(text);
  BlockStat s;
  std::uint64_t* fields[] = {&s.reads,  &s.read_merges,  &s.read_sectors,  &s.read_ticks_ms,
                             &s.writes, &s.write_merges, &s.write_sectors, &s.write_ticks_ms,
                             &s.in_flight, &s.io_ticks_ms, &s.time_in_queue_ms};
  for (std::uint64_t* f : fields)
    if (!(in >> *f)) return BlockStat{};
  s.ok = true;
  return s;
}

Inflight parse_inflight(const std::string& text) {
  std::istringstream in(text);
  Inflight f;
  if (!(in >> f.reads >> f.writes)) return Inflight{};
  f.ok = true;
  return f;
}

std::vector<std::string> data_block_devices(const common::ProcFiles& files, const std::string& name) {
  std::vector<std::string> out;
  const std::string disk = whole_disk(files, name);
  if (disk.empty()) return out;
  out.push_back(disk);
  std::vector<std::string> below;
  for (const std::string& slave : lines_of(files.read("/sys/block/" + disk + "/slaves/"))) {
    const std::string d = whole_disk(files, slave);
    if (!d.empty() && d != disk) below.push_back(d);
  }
  std::sort(below.begin(), below.end());
  below.erase(std::unique(below.begin(), below.end()), below.end());
  out.insert(out.end(), below.begin(), below.end());
  return out;
}

DriveIostat iostat_between(const BlockStat& a, const BlockStat& b, double seconds) {
  DriveIostat x;
  if (seconds <= 0 || !a.ok || !b.ok) return x;
  const double ms = seconds * 1e3;
  x.r_s = per_s(a.reads, b.reads, seconds);
  x.rkb_s = static_cast<double>(delta(a.read_sectors, b.read_sectors)) * 512 / 1024 / seconds;
  x.rrqm_s = per_s(a.read_merges, b.read_merges, seconds);
  const std::uint64_t reads = delta(a.reads, b.reads);
  x.avgrq_kb = reads ? static_cast<double>(delta(a.read_sectors, b.read_sectors)) * 512 / 1024 / static_cast<double>(reads) : 0;
  x.avgqu_sz = static_cast<double>(delta(a.time_in_queue_ms, b.time_in_queue_ms)) / ms;
  const std::uint64_t ios = reads + delta(a.writes, b.writes);
  const std::uint64_t ticks = delta(a.read_ticks_ms, b.read_ticks_ms) + delta(a.write_ticks_ms, b.write_ticks_ms);
  x.await_ms = ios ? static_cast<double>(ticks) / static_cast<double>(ios) : 0;
  x.util = std::min(1.0, static_cast<double>(delta(a.io_ticks_ms, b.io_ticks_ms)) / ms);
  return x;
}

BlockSampler::BlockSampler(const common::ProcFiles& files, std::vector<std::string> devices) : files_(files) {
  for (std::string& d : devices) {
    Device dev;
    dev.stat_path = "/sys/block/" + d + "/stat";
    dev.inflight_path = "/sys/block/" + d + "/inflight";
    dev.name = std::move(d);
    devices_.push_back(std::move(dev));
  }
}

void BlockSampler::sample(std::uint64_t now_ns) {
  for (Device& d : devices_) {
    const BlockStat s = parse_block_stat(files_.read(d.stat_path));
    if (!s.ok) continue;
    if (!d.first.ok) {
      d.first = s;
      d.first_ns = now_ns;
    }
    d.last = s;
    d.last_ns = now_ns;
    const Inflight f = parse_inflight(files_.read(d.inflight_path));
    const std::uint64_t now = f.ok ? f.reads + f.writes : s.in_flight;
    d.max_inflight = std::max(d.max_inflight, now);
    d.inflight_sum += now;
    ++d.samples;
  }
}

std::vector<DriveIostat> BlockSampler::figures() const {
  std::vector<DriveIostat> out;
  for (const Device& d : devices_) {
    DriveIostat x = iostat_between(d.first, d.last, static_cast<double>(d.last_ns - d.first_ns) / 1e9);
    x.device = d.name;
    x.max_inflight = d.max_inflight;
    x.mean_inflight = d.samples ? static_cast<double>(d.inflight_sum) / static_cast<double>(d.samples) : 0;
    x.samples = d.samples;
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace testbed::realrun
