#include "models/server/worker.h"

#include <algorithm>

#include "models/server/accept_cost.h"
#include "models/server/accept_event.h"
#include "models/server/nginx.h"
#include "models/server/pool_choice.h"
#include "models/server/nowait_probe.h"
#include "models/server/pool_steps.h"

namespace models {

Worker::Worker(Nginx& server, std::uint32_t index) : server_(server), index_(index) {
  Host& host = server.host();
  preload_.worker = this;
  task_ = host.tasks.add_task(host.engine.now(), index, TaskState::kSleeping);
  thread_ = host.cpu.add_thread(task_, index);
  // Every pool declared runs its threads in every worker (ngx_thread_pool_init_worker).
  if (server.config().aio->thread_pool)
    for (const ThreadPoolConfig& config : all_thread_pools(server.config())) {
      pools_.push_back(std::make_unique<ThreadPool>(host, config, *this, server.config().worker_processes + index));
      pools_.back()->record_stages(server.stages(), index_, task_);
    }
  // io_uring: its io-wq workers, or its armed page callbacks (nowait_probe.h);
  // io-wq's work list has no bound (io_wq_enqueue). A read waiting on a
  // callback is the kernel's (Runner::kUring): no thread of it is in D.
  if (server.config().aio->io_uring) {
    const IoUringConfig& ring = server.config().io_uring;
    const ThreadPoolConfig uring{"io-wq", ring.pool_threads, 0xffffffffu};
    pools_.push_back(std::make_unique<ThreadPool>(host, uring, *this, server.config().worker_processes + index));
    pools_.back()->record_stages(server.stages(), index_, task_, ring.async_buffered ? Runner::kUring : Runner::kPool);
  }
  if (server.config().aio->native_aio)
    aio_ = std::make_unique<NativeAio>(host.cache, server.config().worker_aio_requests, *this);
  if (server.config().open_file_cache.enabled)
    open_cache_ = std::make_unique<OpenFileCache>(server.config().open_file_cache);
}

double Worker::cpu_wait_so_far() const {
  Host& host = server_.host();
  return host.tasks.task_cpu_wait_s(task_, host.engine.now());
}

void Worker::stage_current(Stage stage, double split_now, double next_mark, Runner runner) {
  if (RequestStages* st = server_.stages()) st->to(current_.conn, stage, server_.host().engine.now(), split_now, next_mark, runner);
}

double Worker::disk_wait_so_far() const {
  Host& host = server_.host();
  return host.tasks.group_integral(index_, TaskState::kDiskWait, host.engine.now());
}

void Worker::set_state(TaskState s, WaitCause cause) {
  if (s == TaskState::kDiskWait) {
    ++blocks;
    stage_current(disk_stage(cause), cpu_wait_so_far());  // in D for the request in hand
  }
  server_.host().tasks.set(server_.host().engine.now(), task_, s, cause);
}

void Worker::post(EventKind kind, std::uint32_t conn) {
  const double disk_wait = disk_wait_so_far();
  // The request waits for this loop from now on.
  if (kind != EventKind::kPoolDone)
    if (RequestStages* st = server_.stages()) st->to(conn, Stage::kLoopBusy, server_.host().engine.now(), 0, disk_wait);
  if (loop_.post(kind, conn, [disk_wait] { return disk_wait; })) wake_now();
}

void Worker::start() {
  ++wake_generation_;
  sleeping_ = false;
  server_.host().engine.schedule_in(0, this, wake_generation_);
}

void Worker::listen_ready() {
  listen_pending_ = true;
  wake_now();
}

double Worker::receive_path_s(std::uint32_t conn, std::uint64_t bytes) {
  return server_.receive_path_s(conn, bytes, server_.host().costs);
}

void Worker::on_pool_done() { post(EventKind::kPoolDone, 0); }

void Worker::wake_now() {
  if (!sleeping_) return;  // a running loop sees the event at its next epoll_wait
  sleeping_ = false;
  waker_ = server_.host().cpu.current_waker();
  woken_at_ = server_.host().engine.now();
  ++wake_generation_;
  server_.host().engine.schedule_in(0, this, wake_generation_);
}

void Worker::on_event(std::uint64_t arg) {
  if (arg != wake_generation_) return;  // an epoll_wait timeout that was overtaken
  begin_turn();
}

void Worker::begin_turn() {
  Host& host = server_.host();
  sleeping_ = false;
  set_state(TaskState::kRunning);
  loop_.begin_turn(host.engine.now(), server_.config().epoll_events);
  const bool woken_for_listen = listen_pending_;
  listen_pending_ = false;
  accept_first_ = server_.listen_ready_for(*this);
  if (accept_first_) {
    accept_first_ = false;
    // accept() runs once this worker is on a CPU and has handled the event
    // up to it: the connection goes to whoever gets there first, and a
    // worker that finds it gone has spent a turn for nothing (costs.event).
    if (use_cpu(accept_claim_cpu(host.costs), Step::kAccept) || accept_connections()) return;
  } else {
    server_.release_accept_mutex(*this);
    step_ = Step::kNextEvent;
    // Woken for a connection another worker took first: accept() says EAGAIN.
    if (woken_for_listen && use_cpu(host.costs.wakeup, Step::kNextEvent)) return;
  }
  resume();
}

bool Worker::accept_connections() {
  const CpuCosts& costs = server_.host().costs;
  const bool got = accept_event(server_, *this) == Accepted::kTaken;
  server_.release_accept_mutex(*this);
  // The rest of the connection's CPU: registering it (ngx_event_accept's
  // bookkeeping, ngx_http_init_connection).
  return use_cpu(got ? costs.accept - accept_claim_cpu(costs) : 0, Step::kNextEvent);
}

bool Worker::take_next() {
  if (!loop_.take_next([this](std::uint32_t id) -> HttpConnection& { return server_.conn(id); },
                       [this] { return disk_wait_so_far(); }, blocked_wait_s, current_))
    return false;
  // The request's handler starts: the wait for the loop ends.
  if (current_.kind != EventKind::kPoolDone) stage_current(Stage::kCpu, disk_wait_so_far(), cpu_wait_so_far());
  step_ = current_.kind == EventKind::kPoolDone ? Step::kPoolDone
          : current_.kind == EventKind::kRead   ? Step::kRequest
                                                : Step::kChunk;
  return true;
}

bool Worker::use_cpu(double seconds, Step then) {
  step_ = then;
  if (seconds <= 0) return false;
  Host& host = server_.host();
  if (woken_at_ == host.engine.now())
    host.cpu.run_woken(thread_, seconds, this, 0, waker_);
  else
    host.cpu.run(thread_, seconds, this, 0);
  woken_at_ = -1;
  return true;
}

void Worker::resume() {
  Host& host = server_.host();
  for (;;) {
    switch (step_) {
      case Step::kAccept:
        if (accept_connections()) return;
        break;
      case Step::kNextEvent:
        if (!take_next()) {
          end_turn();
          return;
        }
        break;
      case Step::kRequest: {
        ++requests;
        server_.begin_request(current_.conn);
        if (use_cpu(host.costs.request, Step::kFill)) return;
        break;
      }
      case Step::kFill: {
        // Writing a new cache file: open(O_CREAT) and rename(), in this process.
        step_ = Step::kOpen;
        if (server_.draw_cache_fill() && !host.walk.metadata_writes(2, this, 0)) {
          set_state(TaskState::kDiskWait, WaitCause::kDiskMetadata);
          return;
        }
        break;
      }
      case Step::kOpen: {
        // open_file_cache: a hit within open_file_cache_valid needs no
        // open() and no stat(), so no path walk (ngx_open_cached_file).
        if (open_cache_ &&
            open_cache_->open(server_.conn(current_.conn).file, sim::to_seconds(host.engine.now())) ==
                OpenFileCache::Lookup::kHit) {
          step_ = Step::kHeader;
          break;
        }
        if (!pools_.empty() && server_.config().aio_open) {
          post_to_pool(current_.conn, true);
          if (use_cpu(host.costs.pool_post(), Step::kNextEvent)) return;
          break;
        }
        // open() walks the path in this process: upstream NGINX never offloads it.
        std::uint64_t keys[8];
        const HttpConnection& c = server_.conn(current_.conn);
        const std::uint32_t n = server_.files().components(c.file, keys);
        step_ = Step::kHeader;
        if (!host.walk.open(keys, n, this, 0)) {
          set_state(TaskState::kDiskWait, WaitCause::kDiskMetadata);
          return;
        }
        break;
      }
      case Step::kHeader:
        // The file is open and its size known: the response header goes out.
        server_.start_response(current_.conn);
        step_ = Step::kChunk;
        break;
      case Step::kChunk: {
        HttpConnection& c = server_.conn(current_.conn);
        if (c.phase == HttpConnection::Phase::kClosed) {
          step_ = Step::kNextEvent;
          break;
        }
        if (reads_direct(server_.config(), host.cache.file_size(c.file))) {
          direct_ = direct_call(server_.config(), c);
          step_ = Step::kDirect;
          break;
        }
        if (server_.config().aio->io_uring) {
          step_ = Step::kUring;
          break;
        }
        if (!pools_.empty() && server_.config().aio_nowait) {
          step_ = Step::kProbe;
          break;
        }
        if (!pools_.empty()) {
          post_to_pool(current_.conn, false);
          if (use_cpu(host.costs.pool_post(), Step::kNextEvent)) return;
          break;
        }
        const std::uint64_t limit = server_.chunk_limit(c);
        call_ = SendfileCall{c.file, c.flow, c.position, limit, 0, &c.ra, false, 0};
        // FreeBSD: SF_NODISKIO, but not after EBUSY twice in a row without
        // progress (ngx_freebsd_sendfile_chain: busy_count > 2 turns it off for one call).
        call_.nodiskio = server_.config().nodiskio != NginxConfig::NoDiskIo::kOff && c.busy_count <= 2;
        if (!call_.nodiskio) c.busy_count = 0;
        step_ = Step::kSendfile;
        break;
      }
      case Step::kSendfile: {
        if (!sendfile_run(host, call_, this, 0)) {
          if (after_probe_) ++nowait_races;  // evicted since the probe: the loop blocks
          after_probe_ = false;
          set_state(TaskState::kDiskWait, WaitCause::kDiskData);
          return;
        }
        after_probe_ = false;
        server_.conn(current_.conn).position = call_.position;
        if (call_.busy) {
          HttpConnection& c = server_.conn(current_.conn);
          c.busy_count = call_.sent == 0 ? static_cast<std::uint8_t>(c.busy_count + 1) : 0;
          call_.busy = false;
          if (!start_preload(current_.conn)) break;  // resident by now: sendfile() again
          server_.data_sent(current_.conn, call_.sent);
          const double cpu = host.costs.sendfile_byte * static_cast<double>(call_.sent) + reader_fill_s(host, call_) +
                             server_.receive_path_s(current_.conn, call_.sent, host.costs);
          mark_sendfile_burst(host, thread_, cpu, call_.sent);
          if (use_cpu(cpu, Step::kNextEvent)) return;
          break;
        }
        if (call_.nodiskio) server_.conn(current_.conn).busy_count = 0;
        sent_ = call_.sent;
        limit_ = call_.limit;
        const double cpu = extra_cpu_ + host.costs.sendfile_byte * static_cast<double>(call_.sent) +
                           reader_fill_s(host, call_) + server_.receive_path_s(current_.conn, call_.sent, host.costs);
        extra_cpu_ = 0;
        mark_sendfile_burst(host, thread_, cpu, call_.sent);
        if (use_cpu(cpu, Step::kSent)) return;
        break;
      }
      case Step::kDirect: {
        // A pass of ngx_output_chain over a directio file: the loop waits
        // for the reads it does itself (aio off; the tail with aio on; a
        // read io_submit refused).
        const DirectPass pass = direct_read_run(host, direct_, this, 0);
        if (pass == DirectPass::kWait) {
          set_state(TaskState::kDiskWait, WaitCause::kDiskData);
          return;
        }
        server_.conn(current_.conn).position = direct_.position;
        // writev()'s copy of the buffers, priced as sendfile()'s per byte.
        // (The loopback receive path is registered only where the CPU is
        // spent: a refused io_submit runs this pass again on the same bytes.)
        const double write_cpu = host.costs.sendfile_byte * static_cast<double>(direct_.sent);
        if (pass == DirectPass::kOffload) {
          if (!offload_read(current_.conn)) {
            direct_.read_here_once = true;  // ngx_read_file(): this pass reads it, blocking; the next goes to io_submit again
            break;
          }
          const double rx = server_.receive_path_s(current_.conn, direct_.sent, host.costs);
          server_.data_sent(current_.conn, direct_.sent);
          // Posting the task; io_submit's own CPU time is not measured (left out).
          if (use_cpu(write_cpu + rx + (pools_.empty() ? 0.0 : host.costs.pool_post()), Step::kNextEvent)) return;
          break;
        }
        sent_ = direct_.sent;
        limit_ = direct_limit(server_.config(), direct_);
        if (use_cpu(write_cpu + server_.receive_path_s(current_.conn, direct_.sent, host.costs), Step::kSent)) return;
        break;
      }
      case Step::kSent:
        server_.after_chunk(*this, current_.conn, sent_, limit_);
        step_ = Step::kNextEvent;
        break;
      case Step::kPoolDone: {
        // One eventfd per worker (ngx_notify) and one done list for every
        // pool (ngx_thread_pool_done): one read takes every pool's tasks,
        // handled in the order they finished.
        loop_.pool_event_read();
        if (pools_.size() == 1) {
          pools_.front()->take_done(done_);
          stage_pool_done();
          pool_tasks_done(server_, *this, *pools_.front(), done_);
        } else {
          take_every_pool_done();
          stage_pool_done();
          for (const auto& [task, pool] : done_from_) {
            one_done_.assign(1, task);
            pool_tasks_done(server_, *this, *pools_[pool], one_done_);
          }
        }
        // One eventfd wake-up hands over every task done by then; each costs
        // its completion (io_uring: its CQE, counted in uring_op when submitted).
        const double complete = server_.config().aio->io_uring ? 0.0 : host.costs.pool_complete();
        if (use_cpu(complete * static_cast<double>(done_.size()), Step::kNextEvent)) return;
        break;
      }
      case Step::kProbe: {
        // preadv2(RWF_NOWAIT) of the chunk's range: it copies up to the first
        // page not in the cache (nowait_probe.h).
        const HttpConnection& c = server_.conn(current_.conn);
        const std::uint64_t limit = server_.chunk_limit(c);
        const std::uint64_t have = resident_prefix(host.cache, c.file, c.position, limit);
        probed_resident_ = have == chunk_bytes(host.cache, c.file, c.position, limit);
        ++nowait_probes;
        const double cpu = host.costs.nowait_probe + host.costs.read_copy_byte * static_cast<double>(have);
        if (use_cpu(cpu, Step::kProbed)) return;
        break;
      }
      case Step::kProbed: {
        HttpConnection& c = server_.conn(current_.conn);
        if (c.phase == HttpConnection::Phase::kClosed) {
          step_ = Step::kNextEvent;
          break;
        }
        if (!probed_resident_) {
          ++nowait_misses;  // EAGAIN or a short read: the pool reads it
          step_ = Step::kPostPool;
          break;
        }
        // All resident at the probe: sendfile() on the loop, which blocks
        // if a page was evicted since (the race).
        call_ = SendfileCall{c.file, c.flow, c.position, server_.chunk_limit(c), 0, &c.ra, false, 0};
        after_probe_ = true;
        step_ = Step::kSendfile;
        break;
      }
      case Step::kPostPool:
        post_to_pool(current_.conn, false);
        if (use_cpu(host.costs.pool_post(), Step::kNextEvent)) return;
        break;
      case Step::kUring: {
        // An IORING_OP_READ of the chunk: inline when every page is cached
        // (its copy, then the buffer's send()), else to the ring's pool.
        HttpConnection& c = server_.conn(current_.conn);
        const std::uint64_t limit = server_.chunk_limit(c);
        const std::uint64_t want = chunk_bytes(host.cache, c.file, c.position, limit);
        const bool resident = resident_prefix(host.cache, c.file, c.position, limit) == want;
        ++uring_reads;
        if (uring_read_path(resident, server_.config().io_uring.async_buffered) == UringPath::kInline) {
          call_ = SendfileCall{c.file, c.flow, c.position, limit, 0, &c.ra, false, 0};
          extra_cpu_ = host.costs.uring_op + host.costs.read_copy_byte * static_cast<double>(want);
          step_ = Step::kSendfile;
          break;
        }
        ++uring_async;
        post_to_pool(current_.conn, false);
        if (use_cpu(host.costs.uring_op, Step::kNextEvent)) return;
        break;
      }
    }
  }
}

void Worker::take_every_pool_done() {
  done_.clear();
  done_from_.clear();
  for (std::size_t i = 0; i < pools_.size(); ++i) {
    pools_[i]->take_done(one_done_);
    for (const PoolTask& t : one_done_) done_from_.emplace_back(t, i);
  }
  std::stable_sort(done_from_.begin(), done_from_.end(),
                   [](const auto& a, const auto& b) { return a.first.done_at < b.first.done_at; });
  for (const auto& [task, pool] : done_from_) done_.push_back(task);
}

void Worker::post_to_pool(std::uint32_t conn, bool open) {
  models::post_to_pool(server_, server_.pool_for(*this, conn), conn, open);
}

bool Worker::offload_read(std::uint32_t conn) {
  if (!pools_.empty()) {
    models::post_direct_read(server_, server_.pool_for(*this, conn), conn, direct_);
    return true;
  }
  if (!aio_->submit(direct_, conn)) return false;
  HttpConnection& c = server_.conn(conn);
  c.direct_reading = direct_.reading;
  c.phase = HttpConnection::Phase::kWaitPool;
  stage_current(Stage::kDiskData, cpu_wait_so_far(), 0, Runner::kAio);  // the request waits for the device, not for the loop
  return true;
}

// sendfile(SF_NODISKIO) stopped at a page not resident (EBUSY). 1.9.0 to
// 1.21.4 with aio on: ngx_http_copy_aio_sendfile_preload reads 1 byte at
// the file position with aio_read() (a FreeBSD aio daemon reads it, with the
// file's readahead; kqueue's EVFILT_AIO brings the completion), and the
// completion runs sendfile() again. 1.21.5+ (FreeBSD 11+): sendfile() itself
// starts the read of what it was asked for and the response goes on when it
// is done (the socket's not-ready data; here, the connection's next write).
// Neither waits in this loop. Left out: the aio_read's and kevent's CPU.
bool Worker::start_preload(std::uint32_t conn) {
  Host& host = server_.host();
  HttpConnection& c = server_.conn(conn);
  const std::uint64_t unit_bytes = host.cache.unit_bytes();
  std::uint64_t units = 1;  // the preload's 1 byte
  if (server_.config().nodiskio == NginxConfig::NoDiskIo::kAsyncSendfile) {
    const std::uint64_t want = std::min(call_.limit - call_.sent, host.kernel.pipe_bytes);
    units = std::max<std::uint64_t>(1, (want + unit_bytes - 1) / unit_bytes);
  }
  if (host.cache.read(c.file, c.position / unit_bytes, units, c.ra, &preload_, conn) == PageCache::Result::kReady)
    return false;
  c.phase = HttpConnection::Phase::kWaitPool;
  stage_current(Stage::kDiskData, cpu_wait_so_far(), 0, Runner::kPreload);  // read without this loop
  return true;
}

void Worker::on_preload_done(std::uint32_t conn) {
  HttpConnection& c = server_.conn(conn);
  if (c.phase != HttpConnection::Phase::kWaitPool) return;  // closed meanwhile
  c.phase = HttpConnection::Phase::kQueued;
  post(EventKind::kWrite, conn);
}

// ngx_epoll_eventfd_handler -> ngx_file_aio_event_handler: the read is in the
// buffer, and the request's writer runs again (the next pass writes it).
// Each completion is one ready event here (NGINX reads all of them at one
// eventfd wake-up and posts their handlers to the same turn).
void Worker::on_aio_done(std::uint32_t conn) {
  HttpConnection& c = server_.conn(conn);
  if (c.phase != HttpConnection::Phase::kWaitPool) return;  // closed meanwhile
  c.direct_pending += c.direct_reading;
  c.direct_reading = 0;
  c.phase = HttpConnection::Phase::kQueued;
  post(EventKind::kWrite, conn);
}

void Worker::end_turn() {
  Host& host = server_.host();
  const NginxConfig& cfg = server_.config();
  // ngx_trylock_accept_mutex comes before epoll_wait, and a holder keeps the
  // mutex while it sleeps.
  if (cfg.accept->accept_mutex) mutex_held_ = server_.try_accept_mutex(*this);
  if (loop_.ready() || server_.listen_ready_for(*this)) {
    // epoll_wait returns at once: another turn.
    ++wake_generation_;
    host.engine.schedule_in(0, this, wake_generation_);
    return;
  }
  sleeping_ = true;
  idle_since_ = host.engine.now();
  set_state(TaskState::kSleeping);
  ++wake_generation_;
  // A turn ngx_accept_disabled kept from the mutex waits without accept_mutex_delay's cap.
  const sim::Time timeout = loop_.epoll_timeout(cfg, mutex_held_ || server_.accept_mutex_skipped(*this));
  if (timeout != sim::kNever) host.engine.schedule_in(timeout, this, wake_generation_);
}

void Worker::stage_pool_done() {
  RequestStages* st = server_.stages();
  if (!st) return;
  // Each finished task's request waited on the done list for this loop.
  const sim::Time now = server_.host().engine.now();
  const double disk_wait = disk_wait_so_far(), cpu_wait = cpu_wait_so_far();
  for (const PoolTask& t : done_)
    if (server_.conn(t.conn).phase == HttpConnection::Phase::kWaitPool) st->to(t.conn, Stage::kCpu, now, disk_wait, cpu_wait);
}

void Worker::on_page_ready(std::uint64_t) {
  set_state(TaskState::kRunning);
  stage_current(Stage::kCpu, 0, cpu_wait_so_far());
  resume();
}

void Worker::on_walk_done(std::uint64_t) {
  set_state(TaskState::kRunning);
  stage_current(Stage::kCpu, 0, cpu_wait_so_far());
  resume();
}

void Worker::on_share_milestone(std::uint32_t, std::uint64_t, double) { resume(); }

}  // namespace models
