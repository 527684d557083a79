// The settings of one clerk-serve run. Each one mirrors an NGINX directive
// (named beside it) so that every knob of clerk's worker model exists for
// real; main.cpp fills it from the command line and nothing changes it later.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "open_file_cache.h"

namespace clerk::serve {

struct ServeOptions {
  std::string root;                       // root
  std::string listen_host = "127.0.0.1";  // listen ADDR:PORT
  std::uint16_t listen_port = 8080;
  int workers = 1;                         // worker_processes
  std::size_t worker_connections = 512;    // worker_connections (ngx_event_core_module's default)
  bool reuseport = false;                  // listen ... reuseport
  std::size_t sendfile_max_chunk = 0;      // sendfile_max_chunk (0: unlimited)
  bool aio_threads = false;                // aio threads (also set by --aio nowait)
  // --aio nowait (never in NGINX): before the pool, one preadv2(RWF_NOWAIT)
  // of the chunk; all of it resident, the loop sendfile()s it itself.
  bool aio_nowait = false;
  // --aio io_uring (never in NGINX): a ring per worker reads the chunks.
  bool aio_uring = false;
  unsigned uring_entries = 256;            // io_uring_setup's SQ entries
  unsigned uring_max_workers = 0;          // IORING_REGISTER_IOWQ_MAX_WORKERS (0: the kernel's)
  bool aio_open = false;                   // Cloudflare's aio_open patch
  OpenFileCacheOptions open_file_cache;    // open_file_cache, _valid, _min_uses, _errors
  int threads = 32;                        // thread_pool default threads=32
  std::size_t max_queue = 65536;           //   ... max_queue=65536
  int keepalive_requests = 1000;           // keepalive_requests
  int keepalive_timeout_s = 75;            // keepalive_timeout
  std::size_t header_limit = 8192;         // large_client_header_buffers (total)
  int client_header_timeout_s = 60;        // client_header_timeout
  int send_timeout_s = 60;                 // send_timeout
  std::string pid_file;                    // pid
  std::string port_file;                   // (clerk-serve only) the bound port
};

}  // namespace clerk::serve
