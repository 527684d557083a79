#include "models/scenario/result_json.h"

#include <filesystem>
#include <optional>

#include "models/scenario/run_figures.h"
#include "models/server/pool_choice.h"

namespace models {

using nlohmann::ordered_json;

namespace {
ordered_json stage_row_json(const StageRow& row) {
  ordered_json seconds = ordered_json::object();
  for (std::size_t i = 0; i < kStages; ++i) seconds[stage_info(static_cast<Stage>(i)).key] = row.seconds[i];
  return {{"label", row.label}, {"latency_s", row.latency_s}, {"requests", row.requests}, {"seconds", seconds}};
}

// Where the time went (request_stages.h): the stage names in both
// vocabularies, the p50/p99/p99.9/max rows and the worst request of each second.
ordered_json stages_json(const StageTable& t) {
  if (!t.recorded)
    return {{"recorded", false}, {"why", "this engine keeps no per-request stage clocks (the native engine does)"}};
  ordered_json names = ordered_json::object();
  for (std::size_t i = 0; i < kStages; ++i) {
    const StageInfo& info = stage_info(static_cast<Stage>(i));
    names[info.key] = {{"server", info.server}, {"store", info.store}};
  }
  ordered_json rows = ordered_json::array(), seconds = ordered_json::array();
  for (const StageRow& row : t.rows) rows.push_back(stage_row_json(row));
  for (const StageRow& row : t.worst_per_second) seconds.push_back(stage_row_json(row));
  return {{"recorded", true}, {"requests", t.requests}, {"sum_mismatches", t.mismatches}, {"names", names},
          {"rows", rows},      {"worst_per_second", seconds}};
}

// Total latency percentiles of `done`, and the censored tail: with the
// requests in flight at the end counted at their age (lower bounds).
ordered_json censored_json(const sim::LatencyStats& done, const sim::LatencyStats& ages, std::uint64_t in_flight) {
  const sim::LatencyStats all = censored_tail(done, ages);
  return {{"in_flight", in_flight},       {"oldest_in_flight", ages.max()},  {"count", all.count()},
          {"p50", all.percentile(50)},    {"p90", all.percentile(90)},       {"p99", all.percentile(99)},
          {"p999", all.percentile(99.9)}, {"max", all.max()}};
}

ordered_json raw_json(const sim::LatencyStats& l) {
  return {{"count", l.count()},          {"mean", l.mean()},          {"stdev", l.stdev()},
          {"max", l.max()},              {"p50", l.percentile(50)},   {"p90", l.percentile(90)},
          {"p99", l.percentile(99)},     {"p999", l.percentile(99.9)}};
}

// A figure a run may not have (a page cache that never filled): null, as
// the sweeps write a missing figure, never a sentinel that reads as data.
template <typename T>
ordered_json or_null(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

// The heat map's axis (wrk_result.h): bin k from lowest_s * 10^(k / per_decade).
ordered_json latency_axis_json() {
  return {{"lowest_s", sim::LatencyStats::kLowest}, {"per_decade", kHeatBinsPerDecade}, {"bins", kHeatBins}};
}
}  // namespace

ordered_json latency_bins_json(const LatencyBins& b) { return {{"first", b.first}, {"counts", b.counts}}; }

ordered_json to_json(const RunResult& r, bool with_timing) {
  ordered_json j;
  j["scenario"] = r.scenario;
  j["file"] = r.file;
  j["seed"] = r.seed;
  j["nginx_version"] = r.nginx_version;
  j["duration_s"] = r.duration_s;
  if (with_timing) j["wall_s"] = r.wall_s;
  j["events"] = r.events;
  {
    const WarmupReport& w = r.warmup;
    ordered_json rows = ordered_json::array();
    for (const WarmupInterval& i : w.intervals)
      rows.push_back({{"end_s", i.end_s},
                      {"page_cache_lookups", i.cache_lookups},
                      {"page_cache_hit_ratio", i.cache_hit_ratio},
                      {"metadata_lookups", i.meta_lookups},
                      {"metadata_hit_ratio", i.meta_hit_ratio},
                      {"resident_frac", i.resident_frac},
                      {"evicted_units", i.evicted_units}});
    j["warmup"] = {{"mode", w.mode},         {"requested_s", w.requested_s}, {"interval_s", w.interval_s},
                   {"took_s", w.took_s},     {"settled", w.settled},         {"status", w.status},
                   {"full_at_s", or_null(w.full_at_s)}, {"resident_units_at_full", or_null(w.resident_at_full)},
                   {"intervals", rows}};
  }
  ordered_json clients = ordered_json::object();
  for (const WrkResult& c : r.clients) {
    ordered_json g;
    g["tool"] = "wrk";
    g["url"] = c.spec.url;
    g["threads"] = c.spec.threads;
    g["connections"] = c.connections_open;
    g["requests"] = c.complete;
    g["requests_per_s"] = static_cast<double>(c.complete) / c.runtime_s;
    g["transfer_bytes_per_s"] = static_cast<double>(c.bytes) / c.runtime_s;
    g["errors"] = {{"connect", c.errors.connect}, {"read", c.errors.read}, {"write", c.errors.write},
                   {"timeout", c.errors.timeout}, {"status", c.errors.status}};
    g["latency_s"] = {{"mean", c.latency_mean}, {"stdev", c.latency_stdev}, {"max", c.latency_max},
                      {"within_stdev_frac", c.latency_within_stdev}, {"p50", c.latency_p50},
                      {"p75", c.latency_p75}, {"p90", c.latency_p90}, {"p99", c.latency_p99}};
    g["latency_raw_s"] = raw_json(c.raw);
    g["ttfb_s"] = {{"count", c.ttfb.count()}, {"mean", c.ttfb.mean()}, {"p50", c.ttfb.percentile(50)},
                   {"p99", c.ttfb.percentile(99)}, {"p999", c.ttfb.percentile(99.9)}, {"max", c.ttfb.max()},
                   {"peak_p99", c.ttfb_peak_p99}};
    g["latency_raw_s"]["peak_p99"] = c.latency_peak_p99;
    g["latency_censored_s"] = censored_json(c.raw, c.in_flight_age, c.in_flight);
    if (c.spec.network.internet) {
      // Internet clients: NGINX's $request_time beside the latency they saw.
      g["network"] = {{"rtt", c.spec.network.rtt_s.describe(1e3, "ms")},
                      {"bandwidth", c.spec.network.rate_Bps.describe(8e-6, "Mbit/s")}};
      g["request_time_s"] = raw_json(c.request_time);
    }
    if (c.spec.trace.enabled()) {
      // A replayed access log: its lines, and window by window (by when
      // requests fell due) the simulation beside the log's $request_time.
      const TraceCounts& n = c.trace.counts;
      const TraceSpec& t = c.spec.trace;
      ordered_json windows = ordered_json::array();
      for (const TraceWindowFigures& w : c.trace.windows)
        windows.push_back({{"start_s", w.start_s}, {"due", w.due}, {"responses", w.responses},
                           {"latency_p50_s", w.latency_p50_s}, {"latency_p99_s", w.latency_p99_s},
                           {"ttfb_p50_s", w.ttfb_p50_s}, {"ttfb_p99_s", w.ttfb_p99_s},
                           {"request_time_p50_s", w.request_time_p50_s}, {"request_time_p99_s", w.request_time_p99_s},
                           {"logged", w.logged}, {"logged_request_time_p50_s", w.logged_p50_s},
                           {"logged_request_time_p99_s", w.logged_p99_s}});
      g["trace"] = {{"file", std::filesystem::path(t.file).filename().string()},
                    {"speed", t.speed},
                    {"sample", t.sample},
                    {"window_s", t.window_s},
                    {"dataset", t.dataset == TraceDataset::kLog ? "log" : "add"},
                    {"lines", n.lines},
                    {"malformed", n.malformed},
                    {"first_malformed_line", n.first_malformed_line},
                    {"before_window", n.before_window},
                    {"sampled_out", n.sampled_out},
                    {"past_until", n.past_until},
                    {"replayed", c.trace.replayed},
                    {"not_due_at_end", c.trace.not_due_at_end},
                    {"reordered", n.reordered},
                    {"log_finished", c.trace.log_finished},
                    {"waiting_at_end", c.trace.waiting},
                    {"new_files", t.new_files},
                    {"padding_files", t.padding},
                    {"request_time_s", raw_json(c.request_time)},
                    {"logged_request_time_s", raw_json(c.trace.logged)},
                    {"windows", std::move(windows)}};
    }
    // Second by second, from every response as it completed: what clerk-ui
    // plots (null: a second without responses).
    ordered_json per_s = {{"requests", ordered_json::array()}, {"latency_mean_s", ordered_json::array()},
                          {"latency_p50_s", ordered_json::array()}, {"latency_p99_s", ordered_json::array()},
                          {"ttfb_p50_s", ordered_json::array()}, {"ttfb_p99_s", ordered_json::array()},
                          {"latency_bins", ordered_json::array()}};
    for (const SecondFigures& f : c.per_second) {
      per_s["requests"].push_back(f.responses);
      per_s["latency_mean_s"].push_back(f.latency_mean_s);
      per_s["latency_p50_s"].push_back(f.latency_p50_s);
      per_s["latency_p99_s"].push_back(f.latency_p99_s);
      per_s["ttfb_p50_s"].push_back(f.ttfb_p50_s);
      per_s["ttfb_p99_s"].push_back(f.ttfb_p99_s);
      per_s["latency_bins"].push_back(latency_bins_json(f.latency_bins));
    }
    g["per_s"] = std::move(per_s);
    g["latency_bins"] = latency_axis_json();
    g["stages"] = stages_json(c.stages);
    g["open_loop_rate"] = c.spec.rate;
    g["req_per_s_per_thread"] = {{"mean", c.rate_mean}, {"stdev", c.rate_stdev}, {"max", c.rate_max},
                                 {"within_stdev_frac", c.rate_within_stdev}};
    ordered_json failed = ordered_json::object();
    std::uint64_t failed_total = 0;
    for (const auto& [reason, n] : c.failed) {
      failed[reason] = n;
      failed_total += n;
    }
    // failed_unseen_by_wrk: of `failed`, those whose close had not reached wrk
    // at the end, so that wrk's errors do not count them (WrkResult::failed_unseen).
    g["accounting"] = {{"issued", c.issued},         {"completed", c.complete},
                       {"failed", failed_total},     {"failed_by_reason", failed},
                       {"failed_unseen_by_wrk", c.failed_unseen}, {"in_flight_at_end", c.in_flight}};
    clients[c.spec.name] = g;
  }
  j["clients"] = clients;
  // Every group merged by counts: histograms added, never percentiles averaged.
  j["clients_merged"] = {{"groups", r.clients.size()},
                         {"latency_raw_s", raw_json(r.latency_all)},
                         {"latency_censored_s", censored_json(r.latency_all, r.in_flight_age_all, r.in_flight_all)}};

  ordered_json server;
  ordered_json per_s = ordered_json::array();
  for (double b : r.nic_out_bytes_per_s) per_s.push_back(b * 8 / 1e9);
  server["nic_out_gbps_mean"] = r.nic_out_gbps_mean;
  server["nic_out_gbps_per_s"] = per_s;
  server["nic_payload_capacity_gbps"] = r.nic_payload_capacity_gbps;
  server["cpu"] = {{"logical_cpus", r.logical_cpus}, {"busy_frac", r.cpu_busy_frac}, {"iowait_frac", r.iowait_frac},
                   {"kernel_s", r.kernel_cpu_s}, {"scheduler", r.scheduler}};
  // Blocked time by cause, and (a scheduler only) the time runnable tasks waited for a CPU.
  const auto by_cause = [](const BlockedByCause& b, double cpu_wait) {
    ordered_json j = ordered_json::object();
    for (std::size_t c = 1; c < kWaitCauses; ++c) j[wait_cause_key(static_cast<WaitCause>(c))] = b[c];
    j[wait_cause_key(WaitCause::kNone)] = b[0];
    j["cpu_wait"] = cpu_wait;
    return j;
  };
  ordered_json per_worker = ordered_json::array();
  for (const WorkerFigures& w : r.workers)
    per_worker.push_back({{"connections", w.connections}, {"requests", w.requests}, {"blocks", w.blocks},
                          {"running_frac", w.running},
                          {"sleeping_frac", w.sleeping}, {"disk_wait_frac", w.disk_wait},
                          {"blocked_by_cause", by_cause(w.blocked_by_cause, w.cpu_wait)}});
  server["workers"] = {{"count", r.workers.size()}, {"running_frac", r.workers_running},
                       {"sleeping_frac", r.workers_sleeping}, {"disk_wait_frac", r.workers_disk_wait},
                       {"blocked_by_cause", by_cause(r.workers_blocked_by_cause, r.workers_cpu_wait)},
                       {"fairness", r.fairness}, {"busiest_share", r.busiest_share},
                       {"share_behind_one_block", r.share_behind_one_block}, {"per_worker", per_worker}};
  // Cloudflare's event_loop_blocked: time ready events waited while their
  // loop was blocked, and its share of the server's time to first byte
  // (from a request's arrival to its header going out; the network is not in it).
  server["event_loop_blocked"] = {{"total_s", r.blocked_wait_s},
                                  {"share_of_ttfb", r.server_ttfb_s > 0 ? r.blocked_before_first_byte_s / r.server_ttfb_s : 0.0},
                                  {"requests_delayed_share", r.responses_delayed_share},
                                  {"requests_delayed_share_per_s", r.responses_delayed_share_per_s}};
  server["thread_pool"] = {{"enabled", r.thread_pool}, {"threads", r.pool_threads}, {"tasks", r.pool_tasks},
                           {"overflows", r.pool_overflows}, {"pools", r.pools}, {"max_waiting", r.pool_max_waiting},
                           {"mean_waiting", r.pool_mean_waiting},
                           {"busiest_mean_waiting", r.pool_busiest_mean_waiting}, {"running_frac", r.pool_running},
                           {"sleeping_frac", r.pool_sleeping}, {"disk_wait_frac", r.pool_disk_wait},
                           {"blocked_by_cause", by_cause(r.pool_blocked_by_cause, r.pool_cpu_wait)}};
  if (!r.pool_figures.empty()) {
    ordered_json per_pool = ordered_json::object();
    for (const RunResult::PoolFigures& f : r.pool_figures)
      per_pool[f.name] = {{"threads", f.threads}, {"tasks", f.tasks}, {"overflows", f.overflows},
                          {"max_waiting", f.max_waiting}, {"mean_waiting", f.mean_waiting},
                          {"mean_queue_wait_s", f.mean_queue_wait_s}, {"utilization", f.utilization}};
    server["thread_pool"]["per_pool"] = std::move(per_pool);
  }
  if (r.aio_nowait || r.io_uring)
    server["read_paths"] = {{"nowait_probes", r.read_paths.probes}, {"nowait_misses", r.read_paths.misses},
                            {"nowait_races", r.read_paths.races}, {"uring_reads", r.read_paths.uring_reads},
                            {"uring_not_inline", r.read_paths.uring_async}};
  server["page_cache"] = {{"hit_ratio", r.cache_hit_ratio}, {"lookups", r.cache_lookups},
                          {"lookup_unit_bytes", r.cache_unit_bytes},
                          {"requests_without_disk_wait", r.requests_without_disk_wait},
                          {"requests_recorded", r.requests_with_stages},
                          {"request_hit_ratio", r.requests_with_stages
                                                    ? static_cast<double>(r.requests_without_disk_wait) /
                                                          static_cast<double>(r.requests_with_stages)
                                                    : 0.0},
                          {"resident_bytes", r.cache_resident_bytes}, {"capacity_bytes", r.cache_capacity_bytes},
                          {"readahead_windows", r.readahead_windows}, {"bios", r.bios}};
  // Whenever the configuration sets directio, zeros included (a directio above
  // every file's size reads nothing directly): a figure the configuration
  // names is always there, as json_skeleton promises the sweep and lessons.
  if (r.directio) server["page_cache"]["direct"] = {{"reads", r.direct_reads}, {"bytes", r.direct_bytes}};
  server["dentry_cache"] = {{"lookups", r.dentry_lookups}, {"hits", r.dentry_hits}, {"metadata_reads", r.metadata_reads},
                            {"freed", r.dentries_freed}};
  server["inode_cache"] = {{"lookups", r.inode_lookups}, {"hits", r.inode_hits}, {"freed", r.inodes_freed}};
  server["metadata_blocks"] = {{"lookups", r.metadata_block_lookups},
                               {"hits", r.metadata_block_hits},
                               {"blocks_read", r.metadata_blocks_read}};
  server["disk"] = {{"drives", r.drives}, {"reads", r.disk_reads}, {"read_bytes_per_s", r.disk_read_bytes_per_s},
                    {"mean_queue_depth", r.disk_mean_queue_depth}, {"utilization", r.disk_utilization},
                    {"busiest_utilization", r.disk_busiest_utilization}};
  ordered_json iostat = ordered_json::array();
  for (const RunResult::DriveIostat& x : r.drive_iostat)
    iostat.push_back({{"r_s", x.r_s}, {"rkB_s", x.rkb_s}, {"rrqm_s", x.rrqm_s}, {"avgrq_kB", x.avgrq_kb},
                      {"avgqu_sz", x.avgqu_sz}, {"await_ms", x.await_ms}, {"util", x.util},
                      {"slot_waits", x.slot_waits}, {"slot_wait_ms", x.slot_wait_ms},
                      {"max_outstanding", x.max_outstanding}, {"max_sleepers", x.max_sleepers}});
  server["disk"]["iostat"] = std::move(iostat);
  if (!r.slot_wait_channel.empty()) server["disk"]["slot_wait_channel"] = r.slot_wait_channel;
  if (!r.disk_figures.empty()) {
    ordered_json per_disk = ordered_json::object();
    for (const RunResult::DiskFigures& f : r.disk_figures)
      per_disk[f.name] = {{"mount", f.mount}, {"drives", f.drives}, {"read_bytes_per_s", f.read_bytes_per_s},
                          {"utilization", f.utilization}, {"busiest_utilization", f.busiest_utilization},
                          {"avgqu_sz", f.avgqu_sz}, {"await_ms", f.await_ms}};
    server["disk"]["per_disk"] = std::move(per_disk);
  }
  ordered_json failed = ordered_json::object();
  for (const auto& [reason, n] : r.server_failed) failed[reason] = n;
  server["requests"] = {{"connections", r.server_connections}, {"started", r.server_requests},
                        {"responses_queued", r.server_responses}, {"failed", failed}};
  server["error_log"] = {{"lines", r.error_log_lines}, {"first", r.error_log}};
  j["server"] = server;
  return j;
}

namespace {
// The value at a dotted path of objects' keys; null when there is none.
const ordered_json* json_at(const ordered_json& j, const std::string& dotted) {
  const ordered_json* node = &j;
  std::size_t pos = 0;
  while (pos <= dotted.size()) {
    const std::size_t dot = dotted.find('.', pos);
    const std::string part = dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &(*node)[part];
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return node;
}
}  // namespace

std::optional<double> json_metric(const ordered_json& j, const std::string& dotted) {
  const ordered_json* node = json_at(j, dotted);
  if (node && node->is_number()) return node->get<double>();
  if (node && node->is_boolean()) return node->get<bool>() ? 1.0 : 0.0;
  return std::nullopt;
}

bool json_has_figure(const ordered_json& j, const std::string& dotted) {
  const ordered_json* node = json_at(j, dotted);
  return node && (node->is_number() || node->is_boolean() || node->is_null());
}

// The keys a run of `sc` writes: its client groups, and the sections
// result_json.cpp writes only for some configurations, as run_figures.cpp
// decides them (the read paths with aio_nowait or io_uring, O_DIRECT's reads
// with directio, zeros included, figures per pool with two pools or more, aio
// threads and no ring, per disk with [disks.NAME], the block queue's slot wait
// channel). tests/sweep_plan_test.cpp checks them against runs' JSON.
ordered_json json_skeleton(const Scenario& sc) {
  RunResult r;
  for (const WrkGroupSpec& g : sc.clients) {
    WrkResult w;
    w.spec = g;
    r.clients.push_back(w);
  }
  const bool ring = sc.nginx.aio && sc.nginx.aio->io_uring;
  r.aio_nowait = sc.nginx.aio_nowait;
  r.io_uring = ring;
  r.directio = sc.nginx.directio > 0;
  r.slot_wait_channel = slot_wait_channel(sc);  // a word, not a figure: for the layout's sake
  const std::vector<ThreadPoolConfig> pools = all_thread_pools(sc.nginx);
  const bool aio_threads = sc.nginx.aio && sc.nginx.aio->thread_pool;  // run_figures.cpp: r.thread_pool, the ring aside
  if (aio_threads && pools.size() >= 2 && !ring)
    for (const ThreadPoolConfig& pool : pools) {
      RunResult::PoolFigures f;
      f.name = pool.name;
      r.pool_figures.push_back(f);
    }
  if (!sc.hardware.disks.empty()) {
    RunResult::DiskFigures f;
    f.name = "disk";  // [disk], as run_figures.cpp names it
    r.disk_figures.push_back(f);
    for (const HardwareSpec::NamedDisk& d : sc.hardware.disks) {
      f.name = d.name;
      r.disk_figures.push_back(f);
    }
  }
  return to_json(r, false);
}

}  // namespace models
