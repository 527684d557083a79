// libFuzzer target: every reader of /proc and /sys text that `clerk
// calibrate` and `clerk realrun` use, wrk's output, the mountinfo
// reader of clerk-disk's mounts (common/mountinfo.h) and the netlink qdisc
// dump's reader (common/loopback_tcp.h), on hostile text.
//
// The first byte picks the reader; the rest is the file's text. The kernel
// facts and block-device readers go through common::ProcFiles, so here every
// file they ask for holds the fuzzed text (a directory listing too).
//
// Contract on every input: a reader returns (a value, nullopt, ok = false) or
// throws a std::runtime_error with a message; anything else thrown (e.g.
// std::invalid_argument or std::out_of_range from std::stoul on a field that
// is not a number) is a finding, as is a crash or a sanitizer report. The
// mountinfo reader throws nothing; a mount it returns has every field the
// kernel always writes, none longer than the text.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include <fmt/format.h>

#include "common/loopback_tcp.h"
#include "common/mountinfo.h"
#include "common/proc_files.h"
#include "common/proc_stat.h"
#include "fuzz/contract.h"
#include "testbed/calibrate/cache_fill.h"
#include "testbed/calibrate/kernel_facts.h"
#include "testbed/calibrate/proc_stat.h"
#include "testbed/calibrate/wrk_runner.h"
#include "testbed/realrun/block_stats.h"
#include "testbed/realrun/placement.h"
#include "testbed/realrun/proc_sampler.h"
#include "testbed/realrun/thread_waits.h"
#include "testbed/realrun/wrk_script.h"

namespace {

// Every path holds the same text.
class SameText final : public common::ProcFiles {
 public:
  explicit SameText(std::string text) : text_(std::move(text)) {}
  std::string read(const std::string&) const override { return text_; }

 private:
  std::string text_;
};

// Every RTM_GETQDISC dump returns the same bytes.
class SameDump final : public common::QdiscDump {
 public:
  explicit SameDump(std::string bytes) : bytes_(std::move(bytes)) {}
  std::string dump(std::string& error) const override {
    error.clear();
    return bytes_;
  }

 private:
  std::string bytes_;
};

using Reader = std::function<void(const std::string&)>;

// A name read is one the kernel could have written, or nothing.
void check_kernel_name(const std::string& name) {
  if (!name.empty() && !common::is_kernel_name(name)) fuzz::breach("a congestion control or qdisc that is no kernel name");
}

// The root qdisc of ifindex 1 (lo's) in hostile netlink bytes: a kernel
// name or nothing, and an error only with nothing.
void check_qdisc_dump(const std::string& bytes) {
  std::string error;
  const std::string kind = common::parse_root_qdisc(bytes, 1, error);
  check_kernel_name(kind);
  if (!error.empty() && !kind.empty()) fuzz::breach("qdisc dump: a kind and an error");
}

void check_mountinfo(const std::string& text) {
  for (const common::MountInfo& m : common::parse_mountinfo(text)) {
    for (const std::string* f : {&m.mount_id, &m.parent_id, &m.device, &m.root, &m.mount_point, &m.options,
                                 &m.fstype, &m.source})
      if (f->empty() || f->size() > text.size()) fuzz::breach("mountinfo: a field empty or longer than the text");
    for (const std::string& o : m.optional_fields)
      if (o.empty() || o == "-") fuzz::breach("mountinfo: an optional field empty or the separator");
  }
}

// The first byte of an input picks the reader at its place here, and each
// seed in fuzz/corpus/fuzz_proc/ starts with its reader's place: a reader
// keeps its place, and a removed reader's place goes to the last one.
const std::vector<std::pair<const char*, Reader>>& readers() {
  namespace cal = testbed::calibrate;
  namespace rr = testbed::realrun;
  static const std::vector<std::pair<const char*, Reader>> all = {
      {"common stat ticks", [](const std::string& t) { common::parse_stat_cpu_ticks(t); }},
      {"calibrate schedstat", [](const std::string& t) { cal::parse_schedstat_run_s(t); }},
      {"calibrate io", [](const std::string& t) { cal::parse_io_syscr(t); }},
      {"calibrate machine busy", [](const std::string& t) { cal::parse_machine_busy_s(t, 100); }},
      {"calibrate wrk output", [](const std::string& t) { cal::parse_wrk_output(t); }},
      {"calibrate release",
       [](const std::string& t) {
         int major = 0, minor = 0;
         cal::parse_release(t, major, minor);
       }},
      {"calibrate cpu list", [](const std::string& t) { cal::count_cpu_list(t); }},
      {"calibrate kernel facts", [](const std::string& t) { cal::read_kernel_facts(SameText(t), "vda", "vda1"); }},
      {"realrun stat state", [](const std::string& t) { rr::parse_stat_state(t); }},
      {"common mountinfo", check_mountinfo},
      {"realrun /proc/stat", [](const std::string& t) { rr::parse_proc_stat(t); }},
      {"realrun diskstats", [](const std::string& t) { rr::parse_diskstats(t, 253, 0); }},
      {"realrun task stat", [](const std::string& t) { rr::parse_task_stat(t); }},
      {"realrun schedstat", [](const std::string& t) { rr::parse_schedstat(t); }},
      {"realrun wchan", [](const std::string& t) { rr::parse_wchan(t); }},
      {"realrun block stat", [](const std::string& t) { rr::parse_block_stat(t); }},
      {"realrun inflight", [](const std::string& t) { rr::parse_inflight(t); }},
      {"realrun block devices", [](const std::string& t) { rr::data_block_devices(SameText(t), "vda1"); }},
      {"realrun /proc/net/tcp", [](const std::string& t) { rr::parse_proc_net_tcp(t); }},
      {"realrun socket link", [](const std::string& t) { rr::parse_socket_link(t); }},
      {"realrun wrk summary", [](const std::string& t) { rr::parse_wrk_summary(t); }},
      {"common congestion control", [](const std::string& t) { check_kernel_name(common::read_congestion_control(SameText(t))); }},
      {"common lo ifindex", [](const std::string& t) { common::read_ifindex(SameText(t), "lo"); }},
      {"common qdisc dump", check_qdisc_dump},
      {"common loopback tcp",
       [](const std::string& t) {
         const common::LoopbackTcp l = common::read_loopback_tcp(SameText(t), SameDump(t));
         check_kernel_name(l.congestion_control);
         check_kernel_name(l.lo_qdisc);
       }},
      {"calibrate VmRSS", [](const std::string& t) { cal::parse_vm_rss_bytes(t); }},
      {"common softirqs", [](const std::string& t) { common::parse_softirq_counts(t, "HRTIMER"); }},
  };
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& [name, read] = readers()[data[0] % readers().size()];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    read(text);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).empty()) fuzz::breach(fmt::format("{}: an error with no message", name));
  } catch (const std::exception& e) {
    fuzz::breach(fmt::format("{} threw {} (not a runtime_error): {}", name, typeid(e).name(), e.what()));
  }
  return 0;
}
