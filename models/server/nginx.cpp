#include "models/server/nginx.h"

#include <algorithm>

#include "models/server/http_response.h"
#include "models/server/response_steps.h"

namespace models {

namespace {
constexpr std::size_t kLogLinesKept = 20;
}  // namespace

Nginx::Nginx(Host& host, const NginxConfig& config, const Filesystem& files, ClientSide& clients,
             sim::RandomStream rng)
    : host_(host), config_(config), files_(files), clients_(clients), rng_(rng) {
  for (std::uint32_t i = 0; i < config.worker_processes; ++i) workers_.push_back(std::make_unique<Worker>(*this, i));
  own_backlog_.resize(config.worker_processes);
  placed_.resize(config.placement.size(), std::vector<std::uint32_t>(config.worker_processes, 0));
  for (auto& w : workers_) w->start();
}

Nginx::~Nginx() = default;

HttpConnection& Nginx::slot(std::uint32_t id) {
  while (conns_.size() <= id) conns_.emplace_back();
  if (delivering_.size() <= id) delivering_.resize(id + 1, false);
  if (closing_.size() <= id) closing_.resize(id + 1, false);
  if (placed_on_.size() <= id) placed_on_.resize(id + 1, -1);
  return conns_[id];
}

void Nginx::connection_arrived(std::uint32_t id, std::uint32_t group) {
  HttpConnection& c = slot(id);
  unplace(id);  // the slot's previous connection, if a close was never seen
  c = HttpConnection{};
  c.phase = HttpConnection::Phase::kBacklog;
  c.group = group;
  c.flow = host_.nic.open_flow(this, id);
  ++stats_.connections;
  if (const std::int32_t w = placed_worker(group); w >= 0) {
    placed_on_[id] = w;
    ++placed_[group][static_cast<std::size_t>(w)];
    own_backlog_[static_cast<std::size_t>(w)].push_back(id);
    workers_[static_cast<std::size_t>(w)]->listen_ready();
    return;
  }
  switch (config_.accept) {
    case AcceptPolicy::kReuseport: {
      // The kernel hashes the 4-tuple; a fresh client port makes it uniform.
      const auto w = static_cast<std::uint32_t>(rng_.below(workers_.size()));
      own_backlog_[w].push_back(id);
      workers_[w]->listen_ready();
      break;
    }
    case AcceptPolicy::kMutexOff:
    case AcceptPolicy::kMutexOn: {
      shared_backlog_.push_back(id);
      // Sleeping workers that watch the socket are woken; Linux wakes epoll
      // waiters last in, first out, so the most recently idle worker runs
      // first and wins accept() (Cloudflare, "Why does one NGINX worker take
      // all the load?"). The others find the queue empty. Busy workers see
      // the socket at their next epoll_wait.
      std::vector<Worker*> order;
      for (auto& w : workers_)
        if (w->sleeping() && listen_ready_for(*w)) order.push_back(w.get());
      auto more_recent = [](const Worker* a, const Worker* b) { return a->idle_since() > b->idle_since(); };
      if (config_.epoll_exclusive) {
        // EPOLLEXCLUSIVE: only the first waiter is woken.
        auto first = std::min_element(order.begin(), order.end(), more_recent);
        if (first != order.end()) (*first)->listen_ready();
        break;
      }
      std::stable_sort(order.begin(), order.end(), more_recent);
      for (Worker* w : order) w->listen_ready();
      break;
    }
  }
}

std::int32_t Nginx::placed_worker(std::uint32_t group) const {
  if (group >= config_.placement.size() || config_.placement[group].empty()) return -1;
  const auto& want = config_.placement[group];
  const auto& have = placed_[group];
  // The worker furthest below its recorded count; past the recorded total
  // (reconnects before a close is seen), the one furthest below its share.
  std::int32_t best = -1;
  double best_gap = -1e300;
  double total = 0;
  for (std::uint32_t n : want) total += n;
  for (std::size_t w = 0; w < want.size() && w < have.size(); ++w) {
    if (want[w] == 0) continue;
    const double gap = static_cast<double>(want[w]) - static_cast<double>(have[w]) -
                       static_cast<double>(want[w]) / total;  // ties go to the larger share
    if (gap > best_gap) best_gap = gap, best = static_cast<std::int32_t>(w);
  }
  return best;
}

void Nginx::unplace(std::uint32_t id) {
  if (id >= placed_on_.size() || placed_on_[id] < 0) return;
  --placed_[conns_[id].group][static_cast<std::size_t>(placed_on_[id])];
  placed_on_[id] = -1;
}

bool Nginx::listen_ready_for(const Worker& w) const {
  // The worker's own queue: its reuseport socket's, or connections placed on it.
  if (!own_backlog_[w.index()].empty()) return true;
  switch (config_.accept) {
    case AcceptPolicy::kReuseport: return false;
    case AcceptPolicy::kMutexOn: return w.accept_mutex_held() && !shared_backlog_.empty();
    case AcceptPolicy::kMutexOff: return !shared_backlog_.empty();
  }
  return false;
}

bool Nginx::accept_one(Worker& w) {
  auto& own = own_backlog_[w.index()];
  auto& backlog = config_.accept == AcceptPolicy::kReuseport || !own.empty() ? own : shared_backlog_;
  if (backlog.empty()) return false;
  const std::uint32_t id = backlog.front();
  backlog.pop_front();
  HttpConnection& c = conns_[id];
  c.worker = static_cast<std::int32_t>(w.index());
  c.phase = HttpConnection::Phase::kIdle;
  ++w.accepted;
  if (c.request_pending) {
    c.phase = HttpConnection::Phase::kQueued;
    w.post(Worker::EventKind::kRead, id);
  }
  return true;
}

bool Nginx::try_accept_mutex(const Worker& w) {
  if (mutex_owner_ == -1 || mutex_owner_ == static_cast<std::int32_t>(w.index())) {
    mutex_owner_ = static_cast<std::int32_t>(w.index());
    return true;
  }
  return false;
}

void Nginx::release_accept_mutex(const Worker& w) {
  if (mutex_owner_ == static_cast<std::int32_t>(w.index())) mutex_owner_ = -1;
}

void Nginx::request_arrived(std::uint32_t id, std::uint32_t file) {
  HttpConnection& c = conns_[id];
  if (c.phase == HttpConnection::Phase::kClosed || c.phase == HttpConnection::Phase::kUnused) return;
  c.request_pending = true;
  c.pending_file = file;
  c.arrived_at = host_.engine.now();
  if (c.phase == HttpConnection::Phase::kIdle) {
    c.phase = HttpConnection::Phase::kQueued;
    workers_[static_cast<std::size_t>(c.worker)]->post(Worker::EventKind::kRead, id);
  }
}

void Nginx::begin_request(std::uint32_t id) { models::begin_request(conns_[id], stats_); }

void Nginx::start_response(std::uint32_t id) {
  HttpConnection& c = conns_[id];
  host_.nic.send(c.flow, static_cast<double>(nginx_header_bytes(config_.version, files_.file_size(c.file))));
  stats_.blocked_before_first_byte_s += c.blocked_s;
  stats_.ttfb_s += sim::to_seconds(host_.engine.now() - c.arrived_at);
  clients_.on_first_byte(id);
}

bool Nginx::draw_cache_fill() {
  return config_.cache_fill_rate > 0 && rng_.uniform() < config_.cache_fill_rate;
}

std::uint64_t Nginx::chunk_limit(const HttpConnection& c) const {
  return models::chunk_limit(config_, files_.file_size(c.file), c);
}

void Nginx::after_chunk(Worker& w, std::uint32_t id, std::uint64_t sent, std::uint64_t limit) {
  HttpConnection& c = conns_[id];
  switch (models::after_chunk(config_, files_.file_size(c.file), c, stats_, sent, limit)) {
    case models::AfterChunk::kNothing:
      return;
    case models::AfterChunk::kResponseDone:
      closing_[id] = c.phase == HttpConnection::Phase::kClosed;
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

void Nginx::fail(std::uint32_t id, const std::string& reason, const std::string& log_line) {
  HttpConnection& c = conns_[id];
  if (c.phase == HttpConnection::Phase::kClosed) return;
  c.phase = HttpConnection::Phase::kClosed;
  host_.nic.close_flow(c.flow);
  delivering_[id] = false;
  unplace(id);
  ++stats_.failed[reason];
  ++stats_.log_lines;
  if (stats_.log.size() < kLogLinesKept) stats_.log.push_back(log_line);
  clients_.on_connection_closed(id, reason);
}

void Nginx::on_flow_below(std::uint64_t tag) {
  const auto id = static_cast<std::uint32_t>(tag);
  HttpConnection& c = conns_[id];
  if (c.phase != HttpConnection::Phase::kWaitWritable) return;
  c.phase = HttpConnection::Phase::kQueued;
  workers_[static_cast<std::size_t>(c.worker)]->post(Worker::EventKind::kWrite, id);
}

void Nginx::on_flow_empty(std::uint64_t tag) {
  const auto id = static_cast<std::uint32_t>(tag);
  if (!delivering_[id]) return;
  delivering_[id] = false;
  deliver(id);
}

void Nginx::deliver(std::uint32_t id) {
  const bool close = closing_[id];
  if (close) {
    closing_[id] = false;
    host_.nic.close_flow(conns_[id].flow);
    unplace(id);
  }
  clients_.on_response_delivered(id, close);
}

}  // namespace models
