#include "engines/simgrid/sg_server.h"

#include <algorithm>

#include "engines/simgrid/sg_worker.h"
#include "models/server/http_response.h"
#include "models/server/response_steps.h"
#include "models/server/wake_order.h"

namespace sgengine {

using Phase = models::HttpConnection::Phase;

namespace {
constexpr std::size_t kLogLinesKept = 20;
}  // namespace

SgServer::SgServer(SgHost& host, const models::NginxConfig& config, const models::Filesystem& files,
                   models::ClientSide& clients, sim::RandomStream rng)
    : host_(host), config_(config), files_(files), clients_(clients), rng_(rng), sockets_(config) {
  for (std::uint32_t i = 0; i < config.worker_processes; ++i) workers_.push_back(std::make_unique<SgWorker>(*this, i));
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
  models::wake_for_connection(sockets_.queue(id, group, rng_), workers_, sockets_, config_.epoll_exclusive,
                              wake_order_);
}

bool SgServer::listen_ready_for(const SgWorker& w) const {
  return sockets_.ready_for(w.index(), w.accept_mutex_held());
}

bool SgServer::accept_one(SgWorker& w) {
  std::uint32_t id = 0;
  if (!sockets_.accept(w.index(), id)) return false;
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

bool SgServer::try_accept_mutex(const SgWorker& w) { return sockets_.try_mutex(w.index()); }

void SgServer::release_accept_mutex(const SgWorker& w) { sockets_.release_mutex(w.index()); }

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
  sockets_.closed(id);
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
    sockets_.closed(id);
  }
  clients_.on_response_delivered(id, close);
}

}  // namespace sgengine
