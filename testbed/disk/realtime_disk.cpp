#include "realtime_disk.h"

#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <chrono>

namespace testbed::disk {

namespace {
std::int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
constexpr std::size_t kMaxSamples = 1 << 20;  // lateness samples kept (8 MiB)
}  // namespace

RealtimeDisk::RealtimeDisk(sim::Engine& engine, models::BlockDevice& device, bool null_delay)
    : engine_(engine), device_(device), null_delay_(null_delay), epoch_ns_(monotonic_ns()), thread_([this] { run(); }) {}

RealtimeDisk::~RealtimeDisk() { stop(); }

sim::Time RealtimeDisk::sim_now() const { return monotonic_ns() - epoch_ns_; }

void RealtimeDisk::submit(std::uint64_t offset, std::uint64_t length, Done done) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    inbox_.push_back(Arrival{sim_now(), offset, length, std::move(done), nullptr, nullptr});
  }
  wake_.notify_one();
}

void RealtimeDisk::submit_job(Start start, Done done) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    inbox_.push_back(Arrival{sim_now(), 0, 0, std::move(done), std::move(start), nullptr});
  }
  wake_.notify_one();
}

void RealtimeDisk::post(Note note) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    inbox_.push_back(Arrival{sim_now(), 0, 0, nullptr, nullptr, std::move(note)});
  }
  wake_.notify_one();
}

std::vector<RealtimeDisk::Done> RealtimeDisk::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  std::vector<Done> left;
  for (auto& [tag, o] : outstanding_) left.push_back(std::move(o.done));
  outstanding_.clear();
  for (Arrival& a : inbox_)
    if (a.done) left.push_back(std::move(a.done));
  inbox_.clear();
  return left;
}

void RealtimeDisk::on_io_done(std::uint64_t tag) { completed_.emplace_back(tag, engine_.now()); }

// Each arrival enters the model at the time it arrived: the engine first
// runs up to it (completing what was due before), then the read is submitted.
void RealtimeDisk::admit(std::deque<Arrival>& batch) {
  for (Arrival& a : batch) {
    if (a.note) {
      if (null_delay_) continue;
      engine_.run_until(std::max(a.at, engine_.now()));
      a.note();
      continue;
    }
    const std::uint64_t tag = next_tag_++;
    const bool job = static_cast<bool>(a.start);
    outstanding_.emplace(tag, Outstanding{std::move(a.done), job ? 0 : a.length, job});
    if (null_delay_) {
      completed_.emplace_back(tag, a.at);
      continue;
    }
    engine_.run_until(std::max(a.at, engine_.now()));
    if (!job)
      device_.submit_read(a.offset, a.length, this, tag);
    else if (a.start(tag))
      job_done(tag);
  }
  batch.clear();
  if (!null_delay_) {
    const std::uint32_t now_out = static_cast<std::uint32_t>(outstanding_.size() - completed_.size());
    std::lock_guard<std::mutex> lock(mutex_);
    max_outstanding_ = std::max(max_outstanding_, now_out);
  }
}

void RealtimeDisk::finish_completed() {
  if (completed_.empty()) return;
  std::vector<std::pair<std::uint64_t, sim::Time>> done;
  done.swap(completed_);
  for (const auto& [tag, due] : done) {
    const auto it = outstanding_.find(tag);
    if (it == outstanding_.end()) continue;
    Outstanding o = std::move(it->second);
    outstanding_.erase(it);
    const sim::Time start = sim_now();
    o.done(true);
    const sim::Time end = sim_now();
    const double late_us = static_cast<double>(start - due) / 1000.0;
    std::lock_guard<std::mutex> lock(mutex_);
    if (o.job) {
      ++jobs_;
      continue;
    }
    ++reads_;
    bytes_ += o.bytes;
    ++sizes_[o.bytes];
    reply_s_ += sim::to_seconds(end - start);
    if (lateness_us_.size() < kMaxSamples) lateness_us_.push_back(late_us);
  }
}

void RealtimeDisk::run() {
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);  // 1 µs (the default is 50 µs)
  std::deque<Arrival> batch;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const sim::Time next = engine_.next_event_time();
      auto ready = [this] { return stopping_ || !inbox_.empty(); };
      if (next == sim::kNever) {
        wake_.wait(lock, ready);
      } else {
        const auto due = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(epoch_ns_ + next));
        wake_.wait_until(lock, due, ready);
      }
      if (stopping_) return;
      batch.swap(inbox_);
    }
    admit(batch);
    engine_.run_until(std::max(sim_now(), engine_.now()));
    finish_completed();
  }
}

LatenessReport RealtimeDisk::report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  LatenessReport r;
  r.reads = reads_;
  r.bytes = bytes_;
  r.max_outstanding = max_outstanding_;
  r.jobs = jobs_;
  r.sizes = sizes_;
  r.reply_mean_us = reads_ == 0 ? 0 : reply_s_ * 1e6 / static_cast<double>(reads_);
  if (lateness_us_.empty()) return r;
  std::vector<double> s = lateness_us_;
  std::sort(s.begin(), s.end());
  double sum = 0;
  for (const double v : s) sum += v;
  r.mean_us = sum / static_cast<double>(s.size());
  r.p50_us = s[s.size() / 2];
  r.p99_us = s[std::min(s.size() - 1, s.size() * 99 / 100)];
  r.max_us = s.back();
  return r;
}

}  // namespace testbed::disk
