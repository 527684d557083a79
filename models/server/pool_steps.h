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

// Hands the connection's next sendfile() chunk, or (aio_open) its open(), to
// the pool; a full queue fails the connection as NGINX logs it.
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
    task.direct = reads_direct(server.config(), server.host().cache.file_size(c.file));
    if (task.direct)
      task.direct_read = direct_call(server.config(), c, task.limit);
    else
      task.call = SendfileCall{c.file, c.flow, c.position, task.limit, 0, &c.ra, false, 0};
  }
  c.phase = HttpConnection::Phase::kWaitPool;
  if (!pool.post(task))
    server.fail(conn, "thread_pool_overflow",
                "thread pool \"" + pool.name() + "\" queue overflow: " + std::to_string(pool.waiting()) +
                    " tasks waiting");
}

// The eventfd was read: worker `w` takes what its pool finished (`done`).
// An open() done sends the header and hands over the first chunk; a chunk
// done goes on as any chunk does (after_chunk).
template <class Server, class W, class Pool>
void pool_tasks_done(Server& server, W& w, Pool& pool, const std::vector<PoolTask>& done) {
  for (const PoolTask& t : done) {
    HttpConnection& c = server.conn(t.conn);
    if (c.phase != HttpConnection::Phase::kWaitPool) continue;
    if (t.open) {
      c.phase = HttpConnection::Phase::kSending;
      server.start_response(t.conn);
      post_to_pool(server, pool, t.conn, false);
      continue;
    }
    c.position = t.direct ? t.direct_read.position : t.call.position;
    server.after_chunk(w, t.conn, t.direct ? t.direct_read.sent : t.call.sent, t.limit);
  }
}

}  // namespace models
