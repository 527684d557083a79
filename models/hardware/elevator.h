// I/O schedulers ("elevators") of the block layer, without a clock: which
// queued request a device gets next. The block queue (block_queue.h) holds
// the requests; an elevator only orders the indices it is given.
//
// deadline (block/deadline-iosched.c, Linux 3.13). Requests sit in two lists
// per direction: sorted by sector, and in arrival order with a deadline
// (read_expire, write_expire). deadline_dispatch_requests() goes on with the
// current batch while it holds fewer than fifo_batch requests and a next
// request in sector order exists (next_rq: the request after the one just
// dispatched, with no wrap-around). A new batch picks a direction: reads,
// unless writes wait and reads have been preferred writes_starved times in a
// row. Only then, between batches, is expiry checked (deadline_check_fifo):
// if the oldest request of that direction has expired, or there is no next
// request in sector order, the batch starts at the oldest request; else it
// goes on from next_rq.
//
// mq-deadline (block/mq-deadline.c, 4.11 and later) keeps the same batches,
// expiry and starvation rule per hardware queue; where it differs is the
// request allocation in front of it (blk-mq tags: block_queue.h), not the
// order, so both names map to this class.
//
// noop (block/noop-iosched.c): arrival order. "none" is blk-mq without a
// scheduler: arrival order too.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/container/flat_map.hpp>

#include "sim/time.h"

namespace models {

struct DeadlineTunables {
  // block/deadline-iosched.c (3.13): read_expire = HZ / 2, write_expire = 5 * HZ,
  // writes_starved = 2, fifo_batch = 16.
  double read_expire_s = 0.5;
  double write_expire_s = 5.0;
  std::uint32_t writes_starved = 2;
  std::uint32_t fifo_batch = 16;
};

class Elevator {
 public:
  virtual ~Elevator() = default;
  // A request joins (after its arrival at `now`); `sector` orders it.
  virtual void add(sim::Time now, std::uint32_t rq, std::uint64_t sector, bool write) = 0;
  // A queued request leaves without being dispatched (merged into another).
  // `into` is the request that absorbed it: deadline_merged_requests() moves
  // the survivor to the absorbed one's place in the FIFO if that was older.
  virtual void merged(std::uint32_t gone, std::uint32_t into) = 0;
  // A queued request's start moved (a front merge): re-sort it.
  virtual void resorted(std::uint32_t rq, std::uint64_t new_sector) = 0;
  // The request the device gets next, removed from the elevator; kNone if empty.
  virtual std::uint32_t dispatch(sim::Time now) = 0;
  virtual bool empty() const = 0;
  // Whether the elevator merges a bio at the front of a queued request
  // (deadline: front_merges = 1; noop has no elevator_merge_fn in 3.13).
  virtual bool front_merges() const = 0;

  static constexpr std::uint32_t kNone = UINT32_MAX;
};

// The one place the choices are registered: "deadline", "mq-deadline", "noop", "none".
struct ElevatorChoice {
  const char* name;
  bool blk_mq;  // tags of blk-mq in front of it, rather than 3.13's request lists
};
const std::vector<ElevatorChoice>& elevator_choices();
const ElevatorChoice* find_elevator(const std::string& name);
std::unique_ptr<Elevator> make_elevator(const std::string& name, const DeadlineTunables& tunables);

class DeadlineElevator final : public Elevator {
 public:
  explicit DeadlineElevator(const DeadlineTunables& t);
  void add(sim::Time now, std::uint32_t rq, std::uint64_t sector, bool write) override;
  void merged(std::uint32_t gone, std::uint32_t into) override;
  void resorted(std::uint32_t rq, std::uint64_t new_sector) override;
  std::uint32_t dispatch(sim::Time now) override;
  bool empty() const override { return queued_[0] + queued_[1] == 0; }
  bool front_merges() const override { return true; }

 private:
  using SortKey = std::pair<std::uint64_t, std::uint32_t>;  // sector, request
  using FifoKey = std::pair<sim::Time, std::uint64_t>;      // deadline, arrival number
  struct Entry {
    bool write = false;
    SortKey sort{};
    FifoKey fifo{};
  };
  void remove(std::uint32_t rq);
  std::uint32_t start_batch(sim::Time now);
  std::uint32_t take(std::uint32_t rq);
  bool fifo_expired(int dir, sim::Time now) const;
  Entry& entry(std::uint32_t rq);

  sim::Time expire_[2];
  std::uint32_t writes_starved_;
  std::uint32_t fifo_batch_;
  std::vector<Entry> entries_;                          // by request index
  // Sorted arrays, not trees: a queue holds at most 3/2 nr_requests
  // requests, so an insertion's move of the entries behind it costs less
  // than a tree node's allocation and rebalancing, and nothing is allocated
  // once an array has grown to the deepest queue.
  boost::container::flat_map<SortKey, std::uint32_t> sorted_[2];  // READ, WRITE
  boost::container::flat_map<FifoKey, std::uint32_t> fifo_[2];
  std::uint32_t queued_[2] = {0, 0};
  std::uint64_t arrivals_ = 0;
  std::uint32_t next_rq_[2] = {kNone, kNone};  // next in sector order after the last dispatched
  std::uint32_t batching_ = 0;
  std::uint32_t starved_ = 0;
};

class NoopElevator final : public Elevator {
 public:
  explicit NoopElevator(bool front) : front_(front) {}
  void add(sim::Time now, std::uint32_t rq, std::uint64_t sector, bool write) override;
  void merged(std::uint32_t gone, std::uint32_t into) override;
  void resorted(std::uint32_t, std::uint64_t) override {}
  std::uint32_t dispatch(sim::Time now) override;
  bool empty() const override { return order_.empty(); }
  bool front_merges() const override { return front_; }

 private:
  bool front_;
  boost::container::flat_map<std::uint64_t, std::uint32_t> order_;  // arrival number -> request
  std::vector<std::uint64_t> arrival_of_;         // by request index
  std::uint64_t arrivals_ = 0;
};

}  // namespace models
