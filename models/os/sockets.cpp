#include "models/os/sockets.h"

#include <algorithm>

namespace models {

std::uint32_t Sockets::open_flow(FlowListener* listener, std::uint64_t tag, const TcpPath* path) {
  if (!path) {
    const std::uint32_t f = nic_.open_flow(listener, tag);
    if (f < paths_.size()) paths_[f].tcp.reset();
    return f;
  }
  const std::uint32_t f = nic_.open_flow(this, 0);
  nic_.set_listener(f, this, f);
  if (paths_.size() <= f) paths_.resize(f + 1);
  PathFlow& p = paths_[f];
  const std::uint32_t incarnation = p.incarnation + 1;
  p = PathFlow{};
  p.incarnation = incarnation;
  p.tcp.emplace(tcp_, *path);
  p.listener = listener;
  p.tag = tag;
  return f;
}

void Sockets::close_flow(std::uint32_t f) {
  if (internet(f)) {
    PathFlow& p = paths_[f];
    p.tcp.reset();
    ++p.generation;  // its pending event, if any, is stale
  }
  nic_.close_flow(f);
}

void Sockets::add(std::uint32_t f, double bytes, bool deferred) {
  if (deferred)
    nic_.send_deferred(f, bytes);
  else
    nic_.send(f, bytes);
  if (!internet(f) || bytes <= 0) return;
  PathFlow& p = paths_[f];
  p.nic_empty = false;
  p.empty_pending = true;
  p.tcp->write(engine_.now(), bytes);
  schedule(f);
}

double Sockets::backlog(std::uint32_t f) {
  if (!internet(f)) return nic_.backlog(f);
  return std::max(nic_.backlog(f), paths_[f].tcp->unacked(engine_.now()));
}

bool Sockets::drained(std::uint32_t f) {
  if (nic_.backlog(f) > 0) return false;
  return !internet(f) || paths_[f].tcp->when_departed() <= engine_.now();
}

void Sockets::notify_below(std::uint32_t f, double bytes) {
  if (!internet(f)) {
    nic_.notify_below(f, bytes);
    return;
  }
  PathFlow& p = paths_[f];
  p.want_below = bytes;
  p.nic_below = false;
  nic_.notify_below(f, bytes);  // on_flow_below, now or later
}

void Sockets::on_flow_below(std::uint64_t tag) {
  const auto f = static_cast<std::uint32_t>(tag);
  if (!internet(f)) return;
  paths_[f].nic_below = true;
  settle(f);
}

void Sockets::on_flow_empty(std::uint64_t tag) {
  const auto f = static_cast<std::uint32_t>(tag);
  if (!internet(f)) return;
  paths_[f].nic_empty = true;
  settle(f);
}

void Sockets::on_event(std::uint64_t arg) {
  const auto f = static_cast<std::uint32_t>(arg & 0xffff'ffffu);
  const auto generation = static_cast<std::uint32_t>(arg >> 32);
  if (!internet(f) || paths_[f].generation != generation) return;
  settle(f);
}

void Sockets::settle(std::uint32_t f) {
  const sim::Time now = engine_.now();
  PathFlow* p = &paths_[f];
  const std::uint32_t incarnation = p->incarnation;
  while (p->tcp->next_round() <= now) p->tcp->round(now);
  if (p->want_below >= 0 && p->nic_below && p->tcp->unacked(now) <= p->want_below) {
    p->want_below = -1;
    p->listener->on_flow_below(p->tag);
    p = &paths_[f];
    if (!p->tcp || p->incarnation != incarnation) return;  // closed meanwhile
  }
  if (p->empty_pending && p->nic_empty && p->tcp->when_departed() <= now) {
    p->empty_pending = false;
    p->listener->on_flow_empty(p->tag);
    p = &paths_[f];
    if (!p->tcp || p->incarnation != incarnation) return;
  }
  schedule(f);
}

void Sockets::schedule(std::uint32_t f) {
  PathFlow& p = paths_[f];
  sim::Time at = p.tcp->next_round();
  if (p.want_below >= 0 && p.nic_below) at = std::min(at, p.tcp->when_unacked_at_most(p.want_below));
  if (p.empty_pending && p.nic_empty) at = std::min(at, p.tcp->when_departed());
  ++p.generation;
  if (at == sim::kNever) return;
  engine_.schedule_at(std::max(at, engine_.now()), this, (std::uint64_t{p.generation} << 32) | f);
}

}  // namespace models
