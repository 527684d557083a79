#include "testbed/realrun/proc_sampler.h"
#include "common/proc_stat.h"
#include "common/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace testbed::realrun {
namespace {

// One read() of a small /proc file: no iostream, as this runs 100 times a
// second per worker.
std::string read_small(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buf[1024];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

}  // namespace

char parse_stat_state(const std::string& stat) {
  const std::size_t paren = stat.rfind(')');
  if (paren == std::string::npos || paren + 2 >= stat.size()) return 0;
  return stat[paren + 2];
}

double process_cpu_s(pid_t pid) {
  const auto ticks = common::parse_stat_cpu_ticks(read_small("/proc/" + std::to_string(pid) + "/stat"));
  return ticks ? static_cast<double>(*ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK)) : 0.0;
}

CpuTotals parse_proc_stat(const std::string& text) {
  CpuTotals t;
  std::istringstream in(text);
  std::string name;
  std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(in >> name) || name != "cpu") return t;
  in >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
  t.busy = user + nice + system + irq + softirq + steal;
  t.irq = irq + softirq;
  t.iowait = iowait;
  t.total = t.busy + idle + iowait;
  return t;
}

CpuTotals read_cpu_totals() { return parse_proc_stat(common::read_text("/proc/stat")); }

SoftirqCounts read_softirq_counts() {
  try {
    const std::string text = common::read_text("/proc/softirqs");
    return SoftirqCounts{common::parse_softirq_counts(text, "HRTIMER"), common::parse_softirq_counts(text, "NET_RX")};
  } catch (const std::runtime_error&) {
    return {};
  }
}

DiskCounters parse_diskstats(const std::string& text, unsigned major, unsigned minor) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // major minor name reads merged sectors ms ...
    std::istringstream f(line);
    unsigned ma = 0, mi = 0;
    DiskCounters d;
    std::uint64_t merged = 0;
    if (!(f >> ma >> mi >> d.name >> d.reads >> merged >> d.sectors_read)) continue;
    if (ma == major && mi == minor) {
      d.found = true;
      return d;
    }
  }
  return {};
}

DiskCounters read_disk_counters(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return parse_diskstats(common::read_text("/proc/diskstats"), major(st.st_dev), minor(st.st_dev));
}

StateSampler::StateSampler(std::vector<pid_t> pids) : pids_(std::move(pids)), tallies_(pids_.size()) {
  for (pid_t p : pids_) paths_.push_back("/proc/" + std::to_string(p) + "/task/" + std::to_string(p) + "/stat");
}

void StateSampler::sample() {
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    switch (parse_stat_state(read_small(paths_[i]))) {
      case 0:
        break;  // gone
      case 'R':
        ++tallies_[i].r;
        break;
      case 'D':
        ++tallies_[i].d;
        break;
      default:
        ++tallies_[i].s;  // S, and anything else (I, t, Z) as not running
        break;
    }
  }
}

StateSampler::Shares StateSampler::shares(std::size_t i) const {
  const Tally& t = tallies_[i];
  Shares s;
  s.samples = t.r + t.s + t.d;
  if (s.samples == 0) return s;
  const double n = static_cast<double>(s.samples);
  s.running = static_cast<double>(t.r) / n;
  s.sleeping = static_cast<double>(t.s) / n;
  s.disk_wait = static_cast<double>(t.d) / n;
  return s;
}

}  // namespace testbed::realrun
