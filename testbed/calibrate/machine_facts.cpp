#include "testbed/calibrate/machine_facts.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/control_file.h"

namespace testbed::calibrate {

namespace {
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}
std::uint64_t read_number(const std::string& path) {
  const std::string s = read_text(path);
  return s.empty() ? 0 : std::stoull(s);
}
}  // namespace

unsigned logical_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN));
  return static_cast<unsigned>(CPU_COUNT(&set));
}

MemoryFacts memory_facts() {
  MemoryFacts m;
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb;
  std::string unit;
  while (in >> key >> kb) {
    std::getline(in, unit);
    if (key == "MemTotal:") m.total_bytes = kb * 1024;
    if (key == "MemAvailable:") m.available_bytes = kb * 1024;
  }
  // slabinfo: "name active_objs num_objs objsize ..." (readable by root only).
  std::ifstream slab("/proc/slabinfo");
  std::string line;
  std::uint64_t generic_inode = 0;
  while (std::getline(slab, line)) {
    std::istringstream ls(line);
    std::string name;
    std::uint64_t active = 0, num = 0, size = 0;
    if (!(ls >> name >> active >> num >> size)) continue;
    if (name == "dentry") m.dentry_object = size;
    if (name == "ext4_inode_cache") m.inode_object = size;
    if (name == "inode_cache") generic_inode = size;
  }
  if (m.inode_object == 0) m.inode_object = generic_inode;
  return m;
}

BlockDeviceFacts block_device_of(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + path);
  namespace fs = std::filesystem;
  const std::string dev = "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  std::error_code ec;
  fs::path sys = fs::canonical(dev, ec);
  if (ec) throw std::runtime_error(path + " is not on a block device (" + dev + " missing)");
  BlockDeviceFacts b;
  b.fs_device = sys.filename().string();
  // A partition's queue settings are its disk's.
  if (fs::exists(sys / "partition")) sys = sys.parent_path();
  b.name = sys.filename().string();
  b.capacity_bytes = read_number((sys / "size").string()) * 512;
  b.read_ahead_kb = read_number((sys / "queue/read_ahead_kb").string());
  b.max_sectors_kb = read_number((sys / "queue/max_sectors_kb").string());
  b.rotational = read_number((sys / "queue/rotational").string()) != 0;
  const std::string sched = read_text((sys / "queue/scheduler").string());
  const auto open = sched.find('['), close = sched.find(']');
  b.scheduler = open != std::string::npos && close > open ? sched.substr(open + 1, close - open - 1) : sched;
  return b;
}

std::uint64_t tcp_wmem_max() {
  std::istringstream in(read_text("/proc/sys/net/ipv4/tcp_wmem"));
  std::uint64_t lo = 0, def = 0, max = 0;
  in >> lo >> def >> max;
  return max;
}

std::uint64_t default_pipe_size() {
  int fds[2];
  if (pipe(fds) != 0) return 65536;
  const int size = fcntl(fds[0], F_GETPIPE_SZ);
  close(fds[0]);
  close(fds[1]);
  return size > 0 ? static_cast<std::uint64_t>(size) : 65536;
}

unsigned loopback_mtu() { return static_cast<unsigned>(read_number("/sys/class/net/lo/mtu")); }

std::string load_average() {
  std::istringstream in(read_text("/proc/loadavg"));
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

std::string today_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string kernel_release() {
  struct utsname u {};
  uname(&u);
  return u.release;
}

bool drop_caches() {
  sync();
  return common::write_control_file("/proc/sys/vm/drop_caches", "3\n").empty();
}

}  // namespace testbed::calibrate
