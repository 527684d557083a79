#include "testbed/calibrate/cache_fill.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "testbed/calibrate/machine_facts.h"
#include "common/stale_state.h"
#include "common/cache_cgroup.h"
#include "common/control_file.h"
#include "common/text_file.h"

namespace testbed::calibrate {

namespace {

// Reads [0, bytes) of `path` with read() into one reused buffer.
std::uint64_t read_through(const std::string& path, std::uint64_t bytes) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error("cannot open " + path);
  std::vector<char> buf(1 << 20);
  std::uint64_t done = 0;
  while (done < bytes) {
    const ssize_t n = read(fd, buf.data(), std::min<std::uint64_t>(buf.size(), bytes - done));
    if (n <= 0) break;
    done += static_cast<std::uint64_t>(n);
  }
  close(fd);
  return done;
}

void write_control(const std::string& path, const std::string& text) {
  if (const std::string error = common::write_control_file(path, text); !error.empty()) throw std::runtime_error(error);
}

}  // namespace

double parse_machine_busy_s(const std::string& line, long ticks_per_s) {
  std::istringstream in(line);
  std::string cpu;
  in >> cpu;
  if (cpu != "cpu") throw std::runtime_error("/proc/stat: no cpu line");
  // user nice system idle iowait irq softirq steal
  double v[8] = {};
  for (double& x : v) in >> x;
  const double busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  return busy / static_cast<double>(ticks_per_s);
}

double machine_busy_s() {
  std::ifstream in("/proc/stat");
  std::string line;
  std::getline(in, line);
  return parse_machine_busy_s(line, sysconf(_SC_CLK_TCK));
}

double thread_cpu_s() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) throw std::runtime_error("clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::optional<std::uint64_t> parse_vm_rss_bytes(const std::string& proc_status) {
  std::istringstream in(proc_status);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) != 0) continue;
    std::istringstream fields(line.substr(6));
    std::uint64_t kib = 0;
    std::string unit;
    if (!(fields >> kib >> unit) || unit != "kB" || kib > (UINT64_MAX >> 10)) return std::nullopt;
    return kib << 10;
  }
  return std::nullopt;
}

std::uint64_t reader_allowance(std::optional<std::uint64_t> resident_bytes) {
  constexpr std::uint64_t kAllocations = 64ULL << 20;
  const std::uint64_t resident = std::min<std::uint64_t>(resident_bytes.value_or(0), 1ULL << 40);
  return resident + kAllocations;
}

void fit_cache_fill(CacheFill& r) {
  if (r.cold_bytes == 0 || r.warm_bytes == 0) throw std::invalid_argument("cache fill: a pass read nothing");
  const auto per_byte = [](double s, std::uint64_t bytes) { return s / static_cast<double>(bytes); };
  r.per_byte_s = std::max(0.0, per_byte(r.cold_busy_s, r.cold_bytes) - per_byte(r.warm_busy_s, r.warm_bytes));
  const double reader = std::max(0.0, per_byte(r.cold_reader_s, r.cold_bytes) - per_byte(r.warm_reader_s, r.warm_bytes));
  r.reader_per_byte_s = std::min(reader, r.per_byte_s);
  if (reader > r.per_byte_s) {
    if (!r.note.empty()) r.note += "; ";
    r.note += "the reader's own share came out above the machine's whole: capped at it";
  }
}

CacheFill measure_cache_fill(const std::string& file, std::uint64_t cgroup_limit) {
  CacheFill r;
  const std::uint64_t size = std::filesystem::file_size(file);
  if (size < 4 * cgroup_limit) throw std::invalid_argument("cache fill: the file must be at least 4x the cgroup limit");
  const std::uint64_t allowance = reader_allowance(parse_vm_rss_bytes(common::read_text("/proc/self/status")));
  auto cg = common::CacheCgroup::create({}, cgroup_limit + allowance,
                                        common::own_state_name("clerk-calibrate") + "-fill");
  const std::string self = std::to_string(getpid());
  std::string home;  // where this process goes back to
  if (cg.kind() != common::CacheControlKind::kEvictOnly) {
    home = std::filesystem::path(cg.path()).parent_path().string() + "/cgroup.procs";
    write_control(cg.procs_file(), self);
    r.cgroup_limit = cgroup_limit;
    r.reader_allowance = allowance;
  } else {
    r.note = "no memory cgroup (" + cg.why_not() + "): measured without reclaim";
  }
  struct Leave {
    const std::string& home;
    const std::string& self;
    ~Leave() {
      if (!home.empty()) common::write_control_file(home, self);
    }
  } leave{home, self};

  sync();
  write_control("/proc/sys/vm/drop_caches", "3");
  double t0 = machine_busy_s();
  double own0 = thread_cpu_s();
  r.cold_bytes = read_through(file, size);
  r.cold_reader_s = thread_cpu_s() - own0;
  r.cold_busy_s = machine_busy_s() - t0;

  const std::uint64_t part = cgroup_limit / 2;
  read_through(file, part);  // now cached (half the limit: nothing reclaimed)
  // Cached reads are fast: repeat them until as many bytes as the cold pass
  // went by, so that the clock ticks /proc/stat counts in are many.
  t0 = machine_busy_s();
  own0 = thread_cpu_s();
  r.warm_bytes = 0;
  while (r.warm_bytes < r.cold_bytes) r.warm_bytes += read_through(file, part);
  r.warm_reader_s = thread_cpu_s() - own0;
  r.warm_busy_s = machine_busy_s() - t0;

  fit_cache_fill(r);
  return r;
}

}  // namespace testbed::calibrate
