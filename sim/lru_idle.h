// The idle members of a pool of keep-alive connections, least recently used
// first: a connection that becomes idle goes to the back, a request that
// falls due takes the front. A trace group (models/clients/wrk.h) and its
// real counterpart clerk-replay (testbed/replay/main.cpp) both pick this way,
// so a light load spreads over every connection in turn, as a log's many
// clients, each on its own keep-alive connection, reach the server, rather
// than riding the one connection that freed last (or the lowest-numbered).
// It invents no head-of-line blocking: any idle connection serves at once.
//
// Ids are small integers (indices of the caller's connections). remove()
// and a later push() leave a stale entry in the line; a stamp per id tells
// it apart, so every operation is constant time, amortized.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

namespace sim {

class LruIdle {
 public:
  // `id` became idle: to the back of the line (nothing if it already is idle).
  void push(std::uint32_t id) {
    if (id >= stamp_.size()) {
      stamp_.resize(id + 1, 0);
      member_.resize(id + 1, false);
    }
    if (member_[id]) return;
    member_[id] = true;
    line_.emplace_back(id, ++stamp_[id]);
  }
  // `id` can no longer take a request (closed, reopened): out of the line.
  void remove(std::uint32_t id) {
    if (id < member_.size()) member_[id] = false;
  }
  bool contains(std::uint32_t id) const { return id < member_.size() && member_[id]; }
  // The least recently used idle id, taken out of the line; none when no id is idle.
  std::optional<std::uint32_t> take() {
    while (!line_.empty()) {
      const auto [id, stamp] = line_.front();
      line_.pop_front();
      if (member_[id] && stamp_[id] == stamp) {
        member_[id] = false;
        return id;
      }
    }
    return std::nullopt;
  }

 private:
  std::deque<std::pair<std::uint32_t, std::uint64_t>> line_;  // id, its stamp when pushed
  std::vector<std::uint64_t> stamp_;
  std::vector<bool> member_;
};

}  // namespace sim
