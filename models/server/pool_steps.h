// A worker's side of its thread pool (aio threads), the same on both
// engines: what it hands a pool thread, and what it does with the tasks the
// eventfd says are finished. Templates over the engine's server, worker and
// pool: no virtual call on the way.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/server/http_connection.h"
#include "models/server/pool_task.h"
#include "models/server/response_steps.h"

namespace models {

// Queues `task`; a full queue fails the connection as NGINX logs it.
template <class Server, class Pool>
void post_task(Server& server, Pool& pool, const PoolTask& task) {
  server.conn(task.conn).phase = HttpConnection::Phase::kWaitPool;
  if (!pool.post(task))
    server.fail(task.conn, "thread_pool_overflow",
                "thread pool \"" + pool.name() + "\" queue overflow: " + std::to_string(pool.waiting()) +
                    " tasks waiting");
}

// Hands the connection's next sendfile() chunk, or (aio_open) its open(), to
// the pool. (A directio file's reads are posted one buffer a task by the
// worker's pass: post_direct_read.)
template <class Server, class Pool>
void post_to_pool(Server& server, Pool& pool, std::uint32_t conn, bool open) {
  HttpConnection& c = server.conn(conn);
  PoolTask task;
  task.conn = conn;
  task.open = open;
  if (open) {
    task.levels = server.files().components(c.file, task.keys);
  } else {
    task.limit = server.chunk_limit(c);
    task.call = SendfileCall{c.file, c.flow, c.position, task.limit, 0, &c.ra, false, 0};
  }
  post_task(server, pool, task);
}

// ngx_output_chain_copy_buf -> ngx_thread_read: the one read a directio pass
// stopped before (DirectPass::kOffload) becomes a task; the worker writes.
template <class Server, class Pool>
void post_direct_read(Server& server, Pool& pool, std::uint32_t conn, const DirectReadCall& pass) {
  PoolTask task;
  task.conn = conn;
  task.direct = true;
  task.direct_read = pass;
  post_task(server, pool, task);
}

// The eventfd was read: worker `w` takes what its pool finished (`done`).
// An open() done sends the header and hands over the first chunk; a chunk
// done goes on as any chunk does (after_chunk). A directio read done puts
// its bytes in the connection's buffers, and the request's handler runs
// again at once in the worker (ngx_thread_pool_handler calls
// ngx_http_copy_thread_event_handler, which calls the writer: the next
// pass of ngx_output_chain writes them), as does an open() done of a
// directio file (its first pass).
template <class Server, class W, class Pool>
void pool_tasks_done(Server& server, W& w, Pool& pool, const std::vector<PoolTask>& done) {
  for (const PoolTask& t : done) {
    HttpConnection& c = server.conn(t.conn);
    if (c.phase != HttpConnection::Phase::kWaitPool) continue;
    if (t.open) {
      c.phase = HttpConnection::Phase::kSending;
      server.start_response(t.conn);
      if (!reads_direct(server.config(), server.host().cache.file_size(c.file))) {
        post_to_pool(server, pool, t.conn, false);
        continue;
      }
    } else if (t.direct) {
      *t.direct_read.pending += t.direct_read.reading;
    }
    if (t.open || t.direct) {
      c.phase = HttpConnection::Phase::kQueued;
      w.run_now(t.conn);
      continue;
    }
    c.position = t.call.position;
    server.after_chunk(w, t.conn, t.call.sent, t.limit);
  }
}

}  // namespace models
