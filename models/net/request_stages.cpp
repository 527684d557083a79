#include "models/net/request_stages.h"

#include <bit>
#include <cmath>

namespace models {

namespace {
constexpr StageInfo kInfo[kStages] = {
    {"client", "client side (wrk's queue and thread)", "the customer's own errands"},
    {"network", "network (one-way delay, both ways)", "walking to and from the shop"},
    {"backlog", "listen queue (not yet accepted)", "at the door"},
    {"loop_blocked", "behind a loop blocked in D on another request", "clerk at the warehouse for someone else"},
    {"loop_busy", "behind a busy loop", "clerk serving other customers"},
    {"timer", "sendfile_max_chunk 1 ms timer", "clerk's pause between armfuls"},
    {"run_queue", "run queue (waiting for a CPU)", "clerk waiting for a free desk"},
    {"cpu", "own CPU time (worker or pool thread)", "served at the desk"},
    {"pool_queue", "thread-pool queue", "waiting for the delivery team"},
    {"disk_slot", "disk: block-layer request slot", "queue at the warehouse gate"},
    {"disk_metadata", "disk: metadata (open() path walk)", "warehouse: finding the aisle"},
    {"disk_data", "disk: file data (page-cache miss)", "warehouse: fetching the item"},
    {"reclaim", "memory reclaim", "clearing shelf space"},
    {"socket_nic", "socket and NIC (send buffer, line rate)", "handing the goods over the counter"},
};
constexpr unsigned kSubBits = 4;  // 16 buckets per octave
}  // namespace

const StageInfo& stage_info(Stage s) { return kInfo[static_cast<std::size_t>(s)]; }

std::size_t StageAggregate::bucket_of(sim::Time latency) {
  // Microsecond-ish units (1,024 ns), exact below 16, then 16 per octave.
  const auto v = static_cast<std::uint64_t>(latency > 0 ? latency : 0) >> 10;
  if (v < (1u << kSubBits)) return static_cast<std::size_t>(v);
  const unsigned octave = static_cast<unsigned>(std::bit_width(v)) - 1;  // >= kSubBits
  const std::uint64_t sub = (v >> (octave - kSubBits)) & ((1u << kSubBits) - 1);
  return (octave - kSubBits + 1) * (std::size_t{1} << kSubBits) + static_cast<std::size_t>(sub);
}

void StageAggregate::record(sim::Time now, sim::Time latency, const StageSplit& split, const Journey& journey) {
  const sim::Time total = split_total(split);
  if (std::llabs(total - latency) > 1000) ++mismatches_;
  const std::size_t b = bucket_of(latency);
  if (buckets_.size() <= b) buckets_.resize(b + 1);
  Bucket& bucket = buckets_[b];
  ++bucket.count;
  for (std::size_t i = 0; i < kStages; ++i) bucket.sum[i] += split[i];
  bucket.example_latency = latency;
  bucket.example = split;
  bucket.example_journey = journey;
  ++count_;
  if (split[static_cast<std::size_t>(Stage::kDiskData)] == 0 && split[static_cast<std::size_t>(Stage::kDiskMetadata)] == 0 &&
      split[static_cast<std::size_t>(Stage::kDiskSlot)] == 0)
    ++without_disk_wait_;
  if (latency > worst_latency_) {
    worst_latency_ = latency;
    worst_ = split;
    worst_journey_ = journey;
  }
  const auto second = static_cast<std::size_t>(now / sim::seconds(1));
  if (per_second_.size() <= second) per_second_.resize(second + 1);
  if (latency > per_second_[second].latency) per_second_[second] = Worst{latency, split};
}

namespace {
StageRow row_of(const char* label, double latency_s, std::uint64_t n, const StageSplit& sum) {
  StageRow r;
  r.label = label;
  r.latency_s = latency_s;
  r.requests = n;
  for (std::size_t i = 0; i < kStages; ++i) r.seconds[i] = sim::to_seconds(sum[i]) / static_cast<double>(n);
  return r;
}
}  // namespace

const StageAggregate::Bucket* StageAggregate::bucket_at(double p) const {
  if (count_ == 0) return nullptr;
  const auto rank = static_cast<std::uint64_t>(std::ceil(p / 100.0 * static_cast<double>(count_)));
  std::uint64_t seen = 0;
  for (const Bucket& b : buckets_) {
    seen += b.count;
    if (b.count == 0 || seen < rank) continue;
    return &b;
  }
  return nullptr;
}

StageRow StageAggregate::percentile_row(double p) const {
  const Bucket* b = bucket_at(p);
  if (!b) return StageRow{};
  return row_of("", sim::to_seconds(split_total(b->sum)) / static_cast<double>(b->count), b->count, b->sum);
}

StageRow StageAggregate::percentile_example(double p) const {
  const Bucket* b = bucket_at(p);
  if (!b) return StageRow{};
  return row_of("", sim::to_seconds(b->example_latency), 1, b->example);
}

StageRow StageAggregate::worst() const {
  if (count_ == 0) return StageRow{};
  return row_of("max", sim::to_seconds(worst_latency_), 1, worst_);
}

JourneyRow StageAggregate::percentile_journey(double p) const {
  const Bucket* b = bucket_at(p);
  if (!b) return JourneyRow{};
  return JourneyRow{sim::to_seconds(b->example_latency), 1, b->example_journey};
}

JourneyRow StageAggregate::worst_journey() const {
  if (count_ == 0) return JourneyRow{};
  return JourneyRow{sim::to_seconds(worst_latency_), 1, worst_journey_};
}

StageTable StageAggregate::table() const {
  StageTable t;
  t.recorded = true;
  t.requests = count_;
  t.mismatches = mismatches_;
  t.without_disk_wait = without_disk_wait_;
  if (count_ == 0) return t;
  for (const auto& [label, p] : {std::pair{"p50", 50.0}, std::pair{"p99", 99.0}, std::pair{"p99.9", 99.9}}) {
    StageRow r = percentile_row(p);
    r.label = label;
    t.rows.push_back(r);
  }
  t.rows.push_back(worst());
  for (std::size_t s = 0; s < per_second_.size(); ++s) {
    if (per_second_[s].latency < 0) continue;
    StageRow r = row_of("", sim::to_seconds(per_second_[s].latency), 1, per_second_[s].split);
    r.label = std::to_string(s + 1);
    t.worst_per_second.push_back(r);
  }
  return t;
}

}  // namespace models
