// What one NGINX worker's event loop holds between and within its turns
// (ngx_process_events_and_timers): the epoll ready list, the thread pool's
// eventfd, the 1 ms timers, and the batch of the current turn. Both engines
// keep one per worker and run the same rules over it; they differ only in
// how a turn gets to run and waits for its CPU and disk time.
//
// Each turn epoll_wait returns at most `epoll_events` ready events; NGINX
// handles them one after another, then runs the timers due by the turn's
// cached time, then the events posted to this turn by the one before
// (1.21.4+: ngx_posted_next_events, moved to the posted queue at the start of
// a turn by ngx_event_move_posted_next; epoll_wait does not sleep while
// there are any). Time is cached once per turn at millisecond resolution
// (ngx_current_msec), so a 1 ms timer set during a turn fires in the next.
//
// The member templates take the engine's connection table and its clock of
// the worker's disk waits as callables, so that the per-event path has no
// virtual call.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "models/server/http_connection.h"
#include "models/server/nginx_config.h"
#include "sim/ring.h"
#include "sim/time.h"

namespace models {

enum class LoopEvent : std::uint8_t { kRead, kWrite, kPoolDone };

class EventLoop {
 public:
  struct Ready {
    LoopEvent kind;
    std::uint32_t conn;
    double disk_wait_at_post = 0;  // the worker's time in D state when the event became ready
  };

  // An fd became ready (`disk_wait()`: the worker's time in D state so far).
  // False when it was the pool's eventfd and that was already in the list.
  template <class DiskWait>
  bool post(LoopEvent kind, std::uint32_t conn, DiskWait&& disk_wait) {
    if (kind == LoopEvent::kPoolDone) {
      if (pool_event_queued_) return false;  // an eventfd counts; one read takes all
      pool_event_queued_ = true;
    }
    ready_.push_back(Ready{kind, conn, disk_wait()});
    return true;
  }
  // A handler another handler calls at once (ngx_thread_pool_handler runs
  // each done task's event handler): the connection's write runs next in
  // this turn, after those run_now already put there. The connection must
  // be kQueued.
  template <class DiskWait>
  void run_now(std::uint32_t conn, DiskWait&& disk_wait) {
    batch_.insert(batch_.begin() + static_cast<std::ptrdiff_t>(batch_pos_ + run_now_), Ready{LoopEvent::kWrite, conn, disk_wait()});
    ++run_now_;
  }
  // The eventfd was read: the next pool completion posts it again.
  void pool_event_read() { pool_event_queued_ = false; }

  void add_timer(std::uint32_t conn, std::uint64_t generation) {
    // ngx_add_timer(wev, 1): one millisecond after the cached time of this turn.
    timers_.push(Timer{cached_ms_ + 1, timer_seq_++, conn, generation});
  }

  // ngx_post_event(wev, &ngx_posted_next_events): the write runs in the next
  // turn, after that turn's epoll batch and timers.
  void post_next(std::uint32_t conn, std::uint64_t generation) { next_.push_back(Deferred{conn, generation}); }

  // A turn begins at `now`: the time is cached, the events posted for it
  // taken aside and epoll_wait's batch taken.
  void begin_turn(sim::Time now, std::uint32_t epoll_events) {
    cached_ms_ = now / kMs;
    posted_.insert(posted_.end(), next_.begin(), next_.end());
    next_.clear();
    posted_phase_ = false;
    batch_.clear();
    const std::size_t n = std::min<std::size_t>(ready_.size(), epoll_events);
    for (std::size_t i = 0; i < n; ++i) {
      batch_.push_back(ready_.front());
      ready_.pop_front();
    }
    batch_pos_ = 0;
    timers_phase_ = false;
  }

  // The next event of this turn into `out`: the epoll batch, then the
  // expired timers; false when the turn is over. `conn(id)` gives the
  // connection; a connection taken is kSending, and the time its event
  // waited behind the loop's disk waits is added to `blocked_wait_s`.
  template <class ConnAt, class DiskWait>
  bool take_next(ConnAt&& conn, DiskWait&& disk_wait, double& blocked_wait_s, Ready& out) {
    for (;;) {
      run_now_ = 0;
      while (batch_pos_ < batch_.size()) {
        out = batch_[batch_pos_++];
        if (out.kind == LoopEvent::kPoolDone) return true;
        HttpConnection& c = conn(out.conn);
        if (c.phase != HttpConnection::Phase::kQueued) continue;  // closed meanwhile
        c.phase = HttpConnection::Phase::kSending;
        // event_loop_blocked: how long this ready event waited while the loop
        // was stuck in a disk wait for something else.
        const double blocked = disk_wait() - out.disk_wait_at_post;
        if (out.kind == LoopEvent::kRead) c.blocked_s = 0;  // a new request
        c.blocked_s += blocked;
        blocked_wait_s += blocked;
        return true;
      }
      if (posted_phase_) return false;
      batch_.clear();
      batch_pos_ = 0;
      if (!timers_phase_) {
        // ngx_event_expire_timers: every timer due by the cached time.
        timers_phase_ = true;
        while (!timers_.empty() && timers_.top().deadline_ms <= cached_ms_) {
          const Timer t = timers_.top();
          timers_.pop();
          queue_deferred(conn, disk_wait, Deferred{t.conn, t.generation});
        }
        continue;
      }
      // ngx_event_process_posted: the writes the previous turn posted.
      posted_phase_ = true;
      for (const Deferred& d : posted_) queue_deferred(conn, disk_wait, d);
      posted_.clear();
    }
  }

  // Whether the next turn comes at once: epoll_wait has events to return, or
  // events are posted for the next turn (its timeout is then 0).
  bool ready() const { return !ready_.empty() || !next_.empty(); }
  // epoll_wait's timeout: the next timer, and with accept_mutex on, the
  // accept_mutex_delay of a worker that could not take the mutex.
  sim::Time epoll_timeout(const NginxConfig& cfg, bool holds_mutex) const {
    sim::Time timeout = sim::kNever;
    if (!timers_.empty()) timeout = std::max<std::int64_t>(0, timers_.top().deadline_ms - cached_ms_) * kMs;
    if (cfg.accept->accept_mutex && !holds_mutex)
      timeout = std::min(timeout, static_cast<sim::Time>(cfg.accept_mutex_delay_s * 1e9));
    return timeout;
  }

  // Ready events not yet handled: the epoll list plus the rest of this turn's batch.
  std::size_t ready_events() const { return ready_.size() + (batch_.size() - batch_pos_); }
  std::size_t timers() const { return timers_.size(); }

 private:
  std::size_t run_now_ = 0;  // events run_now put ahead since the last take_next
  static constexpr sim::Time kMs = sim::milliseconds(1);
  // A write deferred by a timer or a posted event; stale once the
  // connection moved on (another generation, or no longer kDelayed).
  struct Deferred {
    std::uint32_t conn;
    std::uint64_t generation;
  };
  template <class ConnAt, class DiskWait>
  void queue_deferred(ConnAt&& conn, DiskWait&& disk_wait, Deferred d) {
    HttpConnection& c = conn(d.conn);
    if (c.phase != HttpConnection::Phase::kDelayed || c.timer_generation != d.generation) return;
    c.phase = HttpConnection::Phase::kQueued;
    batch_.push_back(Ready{LoopEvent::kWrite, d.conn, disk_wait()});
  }
  struct Timer {
    std::int64_t deadline_ms;
    std::uint64_t seq;
    std::uint32_t conn;
    std::uint64_t generation;
    bool operator>(const Timer& o) const {
      return deadline_ms != o.deadline_ms ? deadline_ms > o.deadline_ms : seq > o.seq;
    }
  };

  sim::Ring<Ready> ready_;  // the epoll ready list (no allocation once grown)
  bool pool_event_queued_ = false;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  std::uint64_t timer_seq_ = 0;
  std::vector<Ready> batch_;
  std::size_t batch_pos_ = 0;
  bool timers_phase_ = false;
  std::vector<Deferred> next_;    // posted during this turn, for the next
  std::vector<Deferred> posted_;  // posted by the previous turn, run at the end of this one
  bool posted_phase_ = false;
  std::int64_t cached_ms_ = 0;
};

}  // namespace models
