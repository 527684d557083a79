#include "engines/simgrid/sg_server.h"

#include <algorithm>

#include "engines/simgrid/sg_worker.h"
#include "models/server/carry_out.h"
#include "models/server/http_response.h"
#include "models/server/response_steps.h"
#include "models/server/wake_order.h"

namespace sgengine {

SgServer::SgServer(SgHost& host, const models::NginxConfig& config, const models::Filesystem& files,
                   models::ClientSide& clients, sim::RandomStream rng)
    : host_(host),
      config_(config),
      files_(files),
      rng_(rng),
      sockets_(config),
      conns_(host.nic, clients, sockets_, stats_) {
  for (std::uint32_t i = 0; i < config.worker_processes; ++i) workers_.push_back(std::make_unique<SgWorker>(*this, i));
}

SgServer::~SgServer() = default;

void SgServer::connection_arrived(std::uint32_t id, std::uint32_t group) {
  conns_.open(id, group, this);
  models::wake_for_connection(sockets_.queue(id, group, rng_), workers_, sockets_, config_.epoll_exclusive,
                              wake_order_);
}

bool SgServer::listen_ready_for(const SgWorker& w) { return sockets_.poll(w.index(), w.accept_mutex_held()); }

void SgServer::accept_event_done(const SgWorker& w) { sockets_.accept_event_done(w.index()); }

models::Accepted SgServer::accept_one(SgWorker& w) {
  std::uint32_t id = 0;
  if (!sockets_.accept(w.index(), id)) return models::Accepted::kNone;
  if (!sockets_.take_slot(w.index(), id)) {  // as models::Nginx::accept_one
    conns_.fail(id, models::ListenSockets::kNotEnough, sockets_.not_enough_line());
    return models::Accepted::kRefused;
  }
  ++w.accepted;
  if (conns_.accepted(id, w.index())) w.post(SgWorker::EventKind::kRead, id);
  return models::Accepted::kTaken;
}

bool SgServer::accept_mutex_skipped(const SgWorker& w) const { return sockets_.mutex_skipped(w.index()); }

bool SgServer::try_accept_mutex(const SgWorker& w) { return sockets_.try_mutex(w.index(), w.accept_mutex_held()); }

void SgServer::release_accept_mutex(const SgWorker& w) { sockets_.release_mutex(w.index()); }

void SgServer::request_arrived(std::uint32_t id, std::uint32_t file) {
  if (const std::int32_t w = conns_.request_arrived(id, file, now_ns()); w >= 0)
    workers_[static_cast<std::size_t>(w)]->post(SgWorker::EventKind::kRead, id);
}

void SgServer::begin_request(std::uint32_t id) { models::begin_request(conns_[id], stats_); }

void SgServer::start_response(std::uint32_t id) {
  conns_.header_sent(id, models::nginx_header_bytes(config_.version, files_.file_size(conns_[id].file)), now_ns());
}

bool SgServer::draw_cache_fill() { return config_.cache_fill_rate > 0 && rng_.uniform() < config_.cache_fill_rate; }

std::uint64_t SgServer::chunk_limit(const models::HttpConnection& c) const {
  return models::chunk_limit(config_, files_.file_size(c.file), c);
}

void SgServer::after_chunk(SgWorker& w, std::uint32_t id, std::uint64_t sent, std::uint64_t limit) {
  models::HttpConnection& c = conns_[id];
  models::carry_out(models::after_chunk(config_, files_.file_size(c.file), c, stats_, sent, limit), id, sent, conns_,
                    host_.nic, w, host_.kernel);
}

void SgServer::on_flow_below(std::uint64_t tag) {
  const auto id = static_cast<std::uint32_t>(tag);
  if (const std::int32_t w = conns_.flow_below(id); w >= 0)
    workers_[static_cast<std::size_t>(w)]->post(SgWorker::EventKind::kWrite, id);
}

void SgServer::on_flow_empty(std::uint64_t tag) { conns_.flow_empty(static_cast<std::uint32_t>(tag)); }

}  // namespace sgengine
