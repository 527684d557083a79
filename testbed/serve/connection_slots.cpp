#include "connection_slots.h"

#include <algorithm>

namespace clerk::serve {

std::size_t drain_count(std::size_t reusable) {
  return std::max<std::size_t>(std::min<std::size_t>(32, reusable / 8), 1);
}

std::size_t ConnectionSlots::free_slots() const {
  const std::size_t used = open_ + kReservedSlots;
  return used >= worker_connections_ ? 0 : worker_connections_ - used;
}

void ConnectionSlots::set_reusable(Reusable& connection, bool reusable) {
  if (connection.queued_) reusable_.erase(connection.position_);
  connection.queued_ = reusable;
  if (reusable) connection.position_ = reusable_.insert(reusable_.begin(), &connection);
}

std::size_t ConnectionSlots::drain() {
  if (reusable_.empty() || free_slots() > worker_connections_ / 16) return 0;
  // nginx drains again the last one if none was freed, for a connection the
  // first reuse only moved to its lingering close; here reuse() always
  // closes, so one pass frees every slot it counts.
  const std::size_t count = drain_count(reusable_.size());
  std::size_t closed = 0;
  while (closed < count && !reusable_.empty()) {
    Reusable& oldest = *reusable_.back();
    set_reusable(oldest, false);
    oldest.reuse();
    ++closed;
  }
  return closed;
}

}  // namespace clerk::serve
