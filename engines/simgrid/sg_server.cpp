#include "engines/simgrid/sg_server.h"

#include <algorithm>

#include "engines/simgrid/sg_worker.h"
#include "models/server/http_response.h"
#include "models/server/response_steps.h"

namespace sgengine {

using Phase = models::HttpConnection::Phase;

namespace {
constexpr std::size_t kLogLinesKept = 20;
}  // namespace

SgServer::SgServer(SgHost& host, const models::NginxConfig& config, const models::Filesystem& files,
                   models::ClientSide& clients, sim::RandomStream rng)
    : host_(host), config_(config), files_(files), clients_(clients), rng_(rng) {
  for (std::uint32_t i = 0; i < config.worker_processes; ++i) workers_.push_back(std::make_unique<SgWorker>(*this, i));
  own_backlog_.resize(config.worker_processes);
}

SgServer::~SgServer() = default;

models::HttpConnection& SgServer::slot(std::uint32_t id) {
  while (conns_.size() <= id) conns_.emplace_back();
  if (delivering_.size() <= id) delivering_.resize(id + 1, false);
  if (closing_.size() <= id) closing_.resize(id + 1, false);
  return conns_[id];
}

void SgServer::connection_arrived(std::uint32_t id, std::uint32_t group) {
  models::HttpConnection& c = slot(id);
  c = models::HttpConnection{};
  c.phase = Phase::kBacklog;
  c.group = group;
  c.flow = host_.nic.open_flow(this, id);
  ++stats_.connections;
  switch (config_.accept) {
    case models::AcceptPolicy::kReuseport: {
      // The kernel hashes the 4-tuple; a fresh client port makes it uniform.
      const auto w = static_cast<std::uint32_t>(rng_.below(workers_.size()));
      own_backlog_[w].push_back(id);
      workers_[w]->listen_ready();
      break;
    }
    case models::AcceptPolicy::kMutexOff:
    case models::AcceptPolicy::kMutexOn: {
      shared_backlog_.push_back(id);
      // Sleeping workers that watch the socket are woken, the most recently
      // idle first (Linux wakes epoll waiters last in, first out), and that
      // one wins accept(); with EPOLLEXCLUSIVE only that one is woken.
      order_.clear();
      for (auto& w : workers_)
        if (w->sleeping() && listen_ready_for(*w)) order_.push_back(w.get());
      auto more_recent = [](const SgWorker* a, const SgWorker* b) { return a->idle_since() > b->idle_since(); };
      if (config_.epoll_exclusive) {
        auto first = std::min_element(order_.begin(), order_.end(), more_recent);
        if (first != order_.end()) (*first)->listen_ready();
        break;
      }
      std::stable_sort(order_.begin(), order_.end(), more_recent);
      for (SgWorker* w : order_) w->listen_ready();
      break;
    }
  }
}

bool SgServer::listen_ready_for(const SgWorker& w) const {
  switch (config_.accept) {
    case models::AcceptPolicy::kReuseport: return !own_backlog_[w.index()].empty();
    case models::AcceptPolicy::kMutexOn: return w.accept_mutex_held() && !shared_backlog_.empty();
    case models::AcceptPolicy::kMutexOff: return !shared_backlog_.empty();
  }
  return false;
}

bool SgServer::accept_one(SgWorker& w) {
  auto& backlog = config_.accept == models::AcceptPolicy::kReuseport ? own_backlog_[w.index()] : shared_backlog_;
  if (backlog.empty()) return false;
  const std::uint32_t id = backlog.front();
  backlog.pop_front();
  models::HttpConnection& c = conns_[id];
  c.worker = static_cast<std::int32_t>(w.index());
  c.phase = Phase::kIdle;
  ++w.accepted;
  if (c.request_pending) {
    c.phase = Phase::kQueued;
    w.post(SgWorker::EventKind::kRead, id);
  }
  return true;
}

bool SgServer::try_accept_mutex(const SgWorker& w) {
  if (mutex_owner_ == -1 || mutex_owner_ == static_cast<std::int32_t>(w.index())) {
    mutex_owner_ = static_cast<std::int32_t>(w.index());
    return true;
  }
  return false;
}

void SgServer::release_accept_mutex(const SgWorker& w) {
  if (mutex_owner_ == static_cast<std::int32_t>(w.index())) mutex_owner_ = -1;
}

void SgServer::request_arrived(std::uint32_t id, std::uint32_t file) {
  models::HttpConnection& c = conns_[id];
  if (c.phase == Phase::kClosed || c.phase == Phase::kUnused) return;
  c.request_pending = true;
  c.pending_file = file;
  c.arrived_at = now_ns();
  if (c.phase == Phase::kIdle) {
    c.phase = Phase::kQueued;
    workers_[static_cast<std::size_t>(c.worker)]->post(SgWorker::EventKind::kRead, id);
  }
}

void SgServer::begin_request(std::uint32_t id) { models::begin_request(conns_[id], stats_); }

void SgServer::start_response(std::uint32_t id) {
  models::HttpConnection& c = conns_[id];
  host_.nic.send(c.flow, static_cast<double>(models::nginx_header_bytes(config_.version, files_.file_size(c.file))));
  stats_.blocked_before_first_byte_s += c.blocked_s;
  stats_.ttfb_s += sim::to_seconds(now_ns() - c.arrived_at);
  clients_.on_first_byte(id);
}

bool SgServer::draw_cache_fill() { return config_.cache_fill_rate > 0 && rng_.uniform() < config_.cache_fill_rate; }

std::uint64_t SgServer::chunk_limit(const models::HttpConnection& c) const {
  return models::chunk_limit(config_, files_.file_size(c.file), c);
}

void SgServer::after_chunk(SgWorker& w, std::uint32_t id, std::uint64_t sent, std::uint64_t limit) {
  models::HttpConnection& c = conns_[id];
  switch (models::after_chunk(config_, files_.file_size(c.file), c, stats_, sent, limit)) {
    case models::AfterChunk::kNothing:
      return;
    case models::AfterChunk::kResponseDone:
      closing_[id] = c.phase == Phase::kClosed;
      if (host_.nic.backlog(c.flow) <= 0)
        deliver(id);
      else
        delivering_[id] = true;
      return;
    case models::AfterChunk::kTimer:
      w.add_timer(id, c.timer_generation);
      return;
    case models::AfterChunk::kWaitWritable:
      host_.nic.notify_below(c.flow, models::writable_below(host_.kernel));
      return;
  }
}

void SgServer::fail(std::uint32_t id, const std::string& reason, const std::string& log_line) {
  models::HttpConnection& c = conns_[id];
  if (c.phase == Phase::kClosed) return;
  c.phase = Phase::kClosed;
  host_.nic.close_flow(c.flow);
  delivering_[id] = false;
  ++stats_.failed[reason];
  ++stats_.log_lines;
  if (stats_.log.size() < kLogLinesKept) stats_.log.push_back(log_line);
  clients_.on_connection_closed(id, reason);
}

void SgServer::on_flow_below(std::uint64_t tag) {
  const auto id = static_cast<std::uint32_t>(tag);
  models::HttpConnection& c = conns_[id];
  if (c.phase != Phase::kWaitWritable) return;
  c.phase = Phase::kQueued;
  workers_[static_cast<std::size_t>(c.worker)]->post(SgWorker::EventKind::kWrite, id);
}

void SgServer::on_flow_empty(std::uint64_t tag) {
  const auto id = static_cast<std::uint32_t>(tag);
  if (!delivering_[id]) return;
  delivering_[id] = false;
  deliver(id);
}

void SgServer::deliver(std::uint32_t id) {
  const bool close = closing_[id];
  if (close) {
    closing_[id] = false;
    host_.nic.close_flow(conns_[id].flow);
  }
  clients_.on_response_delivered(id, close);
}

}  // namespace sgengine
