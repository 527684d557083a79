#include "models/server/nginx.h"

#include <algorithm>

#include "models/server/carry_out.h"
#include "models/server/pool_choice.h"
#include "models/server/http_response.h"
#include "models/server/response_steps.h"
#include "models/server/wake_order.h"

namespace models {

Nginx::Nginx(Host& host, const NginxConfig& config, const Filesystem& files, ClientSide& clients,
             sim::RandomStream rng)
    : host_(host),
      config_(config),
      files_(files),
      file_pools_(config.aio->thread_pool && !config.more_thread_pools.empty() ? pools_of_files(config, files)
                                                                                : std::vector<std::uint32_t>{}),
      rng_(rng),
      sockets_(config),
      stages_(clients.stages()),
      conns_(host.sockets, clients, sockets_, stats_) {
  for (std::uint32_t i = 0; i < config.worker_processes; ++i) workers_.push_back(std::make_unique<Worker>(*this, i));
  for (auto& w : workers_) w->start();
}

Nginx::~Nginx() = default;

void Nginx::connection_arrived(std::uint32_t id, std::uint32_t group) {
  conns_.open(id, group, this);
  wake_for_connection(sockets_.queue(id, group, rng_), workers_, sockets_, config_.epoll_exclusive, wake_order_);
}

Accepted Nginx::accept_one(Worker& w) {
  std::uint32_t id = 0;
  if (!sockets_.accept(w.index(), id)) return Accepted::kNone;
  if (!sockets_.take_slot(w.index(), id)) {
    conns_.fail(id, ListenSockets::kNotEnough, sockets_.not_enough_line());
    return Accepted::kRefused;
  }
  ++w.accepted;
  if (conns_.accepted(id, w.index())) w.post(Worker::EventKind::kRead, id);
  return Accepted::kTaken;
}

void Nginx::request_arrived(std::uint32_t id, std::uint32_t file) {
  // Until its worker's read event is posted (at once on a kept-alive connection).
  if (stages_) stages_->to(id, Stage::kBacklog, host_.engine.now());
  if (const std::int32_t w = conns_.request_arrived(id, file, host_.engine.now()); w >= 0)
    workers_[static_cast<std::size_t>(w)]->post(Worker::EventKind::kRead, id);
}

void Nginx::begin_request(std::uint32_t id) {
  models::begin_request(conns_[id], stats_);
  conns_[id].started_at = host_.engine.now();
}

void Nginx::start_response(std::uint32_t id) {
  conns_.header_sent(id, nginx_header_bytes(config_.version, files_.file_size(conns_[id].file)), host_.engine.now());
}

bool Nginx::draw_cache_fill() {
  return config_.cache_fill_rate > 0 && rng_.uniform() < config_.cache_fill_rate;
}

std::uint64_t Nginx::chunk_limit(const HttpConnection& c) const {
  return models::chunk_limit(config_, files_.file_size(c.file), c);
}

void Nginx::after_chunk(Worker& w, std::uint32_t id, std::uint64_t sent, std::uint64_t limit) {
  HttpConnection& c = conns_[id];
  const AfterChunk next = models::after_chunk(config_, files_.file_size(c.file), c, stats_, sent, limit);
  if (stages_ && next != AfterChunk::kNothing) {
    // The worker's handler leaves the CPU: the response is in the socket, or
    // waits for the 1 ms timer (split later by the loop's D time) or for EPOLLOUT.
    const sim::Time now = host_.engine.now();
    if (next == AfterChunk::kTimer || next == AfterChunk::kPostedNext)
      stages_->to(id, Stage::kTimer, now, w.cpu_wait_so_far(), w.disk_wait_so_far());
    else
      stages_->to(id, Stage::kSocket, now, w.cpu_wait_so_far());
  }
  // The log phase runs once the last byte is in the socket: $request_time ends.
  if (next == AfterChunk::kResponseDone) conns_.request_logged(id, host_.engine.now());
  models::carry_out(next, id, sent, conns_, host_.sockets, w, host_.kernel);
}

void Nginx::on_flow_below(std::uint64_t tag) {
  const auto id = static_cast<std::uint32_t>(tag);
  if (const std::int32_t w = conns_.flow_below(id); w >= 0)
    workers_[static_cast<std::size_t>(w)]->post(Worker::EventKind::kWrite, id);
}

void Nginx::on_flow_empty(std::uint64_t tag) { conns_.flow_empty(static_cast<std::uint32_t>(tag)); }

}  // namespace models
