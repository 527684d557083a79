#include "testbed/calibrate/proc_stat.h"

#include <dirent.h>

#include <sstream>
#include <stdexcept>

#include "common/text_file.h"

namespace testbed::calibrate {


double parse_schedstat_run_s(const std::string& text) {
  std::istringstream in(text);
  std::uint64_t ns = 0;
  if (!(in >> ns)) throw std::runtime_error("unreadable schedstat");
  return static_cast<double>(ns) * 1e-9;
}

std::uint64_t parse_schedstat_runs(const std::string& text) {
  std::istringstream in(text);
  std::uint64_t run_ns = 0, wait_ns = 0, runs = 0;
  if (!(in >> run_ns >> wait_ns >> runs)) throw std::runtime_error("unreadable schedstat");
  return runs;
}

std::uint64_t parse_io_syscr(const std::string& io_text) {
  std::istringstream in(io_text);
  std::string key;
  std::uint64_t value = 0;
  while (in >> key >> value)
    if (key == "syscr:") return value;
  throw std::runtime_error("no syscr in an io file");
}

ThreadSample& ThreadSample::operator+=(const ThreadSample& o) {
  all_cpu_s += o.all_cpu_s;
  main_cpu_s += o.main_cpu_s;
  main_syscr += o.main_syscr;
  other_syscr += o.other_syscr;
  main_runs += o.main_runs;
  return *this;
}

ThreadSample operator-(const ThreadSample& after, const ThreadSample& before) {
  ThreadSample d;
  d.all_cpu_s = after.all_cpu_s - before.all_cpu_s;
  d.main_cpu_s = after.main_cpu_s - before.main_cpu_s;
  d.main_syscr = after.main_syscr - before.main_syscr;
  d.other_syscr = after.other_syscr - before.other_syscr;
  d.main_runs = after.main_runs - before.main_runs;
  return d;
}

ThreadSample thread_sample(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid) + "/task";
  ThreadSample s;
  DIR* d = opendir(dir.c_str());
  if (!d) throw std::runtime_error("process " + std::to_string(pid) + " is gone");
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string task = dir + "/" + e->d_name;
    const std::uint64_t syscr = parse_io_syscr(common::read_text_or_throw(task + "/io"));
    const std::string schedstat = common::read_text_or_throw(task + "/schedstat");
    const double cpu = parse_schedstat_run_s(schedstat);
    s.all_cpu_s += cpu;
    if (std::to_string(pid) == e->d_name) {
      s.main_syscr = syscr;
      s.main_cpu_s = cpu;
      s.main_runs = parse_schedstat_runs(schedstat);
    } else {
      s.other_syscr += syscr;
    }
  }
  closedir(d);
  return s;
}

}  // namespace testbed::calibrate
