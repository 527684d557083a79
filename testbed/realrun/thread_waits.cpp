#include "testbed/realrun/thread_waits.h"

#include <algorithm>
#include <sstream>

#include "common/number_text.h"

namespace testbed::realrun {
namespace {

// The `n` largest counts as shares of `total`, largest first (ties by name).
std::vector<std::pair<std::string, double>> top_shares(const std::map<std::string, std::uint64_t>& counts,
                                                       std::uint64_t total, std::size_t n) {
  std::vector<std::pair<std::string, std::uint64_t>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::pair<std::string, double>> out;
  for (std::size_t i = 0; i < v.size() && i < n; ++i)
    out.emplace_back(v[i].first, total ? static_cast<double>(v[i].second) / static_cast<double>(total) : 0.0);
  return out;
}

double share(std::uint64_t part, std::uint64_t whole) {
  return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

constexpr const char* kAwake = "(woke before its wchan was read)";

}  // namespace

std::optional<TaskStat> parse_task_stat(const std::string& stat) {
  const std::size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return std::nullopt;
  std::istringstream in(stat.substr(paren + 1));
  std::string field;
  TaskStat t;
  // Fields 3 (state) to 39 (processor), counted from 1.
  for (int i = 3; i <= 39; ++i) {
    if (!(in >> field)) return i > 3 ? std::optional<TaskStat>(t) : std::nullopt;
    if (i == 3) {
      if (field.size() != 1) return std::nullopt;
      t.state = field[0];
    }
    if (i == 39) t.processor = std::atoi(field.c_str());
  }
  return t;
}

std::optional<SchedStat> parse_schedstat(const std::string& text) {
  std::istringstream in(text);
  SchedStat s;
  if (!(in >> s.on_cpu_ns >> s.run_queue_ns >> s.timeslices)) return std::nullopt;
  return s;
}

std::string parse_wchan(const std::string& text) {
  std::string s = text;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s == "0" ? std::string() : s;
}

const char* task_group_name(TaskGroup g) { return g == TaskGroup::kMain ? "main" : "pool"; }

WaitSummary summarize_waits(TaskGroup group, const GroupWaits& w) {
  WaitSummary s;
  s.group = task_group_name(group);
  s.threads = w.threads;
  s.samples = w.samples;
  s.running = share(w.running, w.samples);
  s.sleeping = share(w.sleeping, w.samples);
  s.disk_wait = share(w.disk_wait, w.samples);
  s.schedstat = w.observed_s > 0;
  if (s.schedstat) {
    s.on_cpu = w.on_cpu_s / w.observed_s;
    s.cpu_wait = w.cpu_wait_s / w.observed_s;
  }
  for (std::size_t c = 0; c < kBlockCauses; ++c)
    s.blocked_by_cause[block_cause_key(static_cast<BlockCause>(c))] = share(w.blocked[c], w.samples);
  s.blocked_by_cause["cpu_wait"] = s.cpu_wait;
  s.top_wchans = top_shares(w.wchans, w.samples, 8);
  s.other_wchans = top_shares(w.other, w.samples, 8);
  return s;
}

WaitSampler::WaitSampler(const common::ProcFiles& files, std::vector<pid_t> workers, std::size_t pool_per_tick)
    : files_(files), workers_(std::move(workers)), pool_per_tick_(pool_per_tick) {}

std::string WaitSampler::path(const Thread& t, const char* file) const {
  return "/proc/" + std::to_string(t.pid) + "/task/" + std::to_string(t.tid) + "/" + file;
}

void WaitSampler::relist() {
  for (pid_t pid : workers_) {
    std::istringstream names(files_.read("/proc/" + std::to_string(pid) + "/task/"));
    std::vector<pid_t> listed;
    for (std::string name; std::getline(names, name);)
      if (const auto tid = common::number_text<pid_t>(name)) listed.push_back(*tid);
    for (pid_t tid : listed) {
      auto& list = tid == pid ? main_ : pool_;
      const bool known = std::any_of(list.begin(), list.end(), [&](const Thread& t) { return t.tid == tid && t.pid == pid; });
      if (!known) list.push_back({pid, tid, tid == pid ? TaskGroup::kMain : TaskGroup::kPool, false, {}, {}, 0, 0});
    }
    for (auto* list : {&main_, &pool_})
      for (Thread& t : *list)
        if (t.pid == pid && std::find(listed.begin(), listed.end(), t.tid) == listed.end()) t.gone = true;
  }
}

void WaitSampler::note_schedstat(Thread& t, std::uint64_t now_ns) {
  const auto s = parse_schedstat(files_.read(path(t, "schedstat")));
  if (!s) return;
  if (!t.first) {
    t.first = s;
    t.first_ns = now_ns;
  }
  t.last = s;
  t.last_ns = now_ns;
}

bool WaitSampler::look(Thread& t, std::uint64_t now_ns) {
  const auto stat = parse_task_stat(files_.read(path(t, "stat")));
  if (!stat) {
    t.gone = true;
    return false;
  }
  note_schedstat(t, now_ns);
  GroupWaits& g = groups_[static_cast<std::size_t>(t.group)];
  ++g.samples;
  if (stat->state == 'R') {
    ++g.running;
    return true;
  }
  const std::string wchan = parse_wchan(files_.read(path(t, "wchan")));
  ++g.wchans[std::string(1, stat->state) + " " + (wchan.empty() ? kAwake : wchan)];
  if (stat->state != 'D') {
    ++g.sleeping;  // S, and anything else (t, Z) as not running
    return true;
  }
  ++g.disk_wait;
  // The wchan was read in D too: the stack, read a little later, may already
  // show the next wait (or none, the thread running again).
  std::vector<std::string> frames = stack_functions(files_.read(path(t, "stack")));
  if (!wchan.empty()) frames.push_back(wchan);
  const BlockCause cause = cause_of_stack(frames);
  ++g.blocked[static_cast<std::size_t>(cause)];
  if (cause == BlockCause::kOther) ++g.other[!wchan.empty() ? wchan : !frames.empty() ? frames.front() : kAwake];
  return true;
}

void WaitSampler::sample(std::uint64_t now_ns) {
  if (ticks_ % kRelistTicks == 0) relist();
  ++ticks_;
  for (Thread& t : main_)
    if (!t.gone) look(t, now_ns);
  std::size_t looked = 0;
  for (std::size_t tried = 0; tried < pool_.size() && looked < pool_per_tick_; ++tried) {
    Thread& t = pool_[pool_cursor_];
    pool_cursor_ = (pool_cursor_ + 1) % pool_.size();
    if (!t.gone && look(t, now_ns)) ++looked;
  }
}

GroupWaits WaitSampler::group(TaskGroup g) const {
  GroupWaits w = groups_[static_cast<std::size_t>(g)];
  for (const Thread& t : g == TaskGroup::kMain ? main_ : pool_) {
    ++w.threads;
    if (!t.first || !t.last || t.last_ns <= t.first_ns) continue;
    w.observed_s += static_cast<double>(t.last_ns - t.first_ns) * 1e-9;
    w.on_cpu_s += static_cast<double>(t.last->on_cpu_ns - t.first->on_cpu_ns) * 1e-9;
    w.cpu_wait_s += static_cast<double>(t.last->run_queue_ns - t.first->run_queue_ns) * 1e-9;
  }
  return w;
}

std::vector<WaitSummary> WaitSampler::summaries() const {
  return {summarize_waits(TaskGroup::kMain, group(TaskGroup::kMain)),
          summarize_waits(TaskGroup::kPool, group(TaskGroup::kPool))};
}

}  // namespace testbed::realrun
