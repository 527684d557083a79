// The NGINX directives the model honours, named as in nginx.conf.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/server/accept_policies.h"
#include "models/server/aio_modes.h"
#include "models/server/open_file_cache.h"
#include "models/server/split_clients.h"

namespace models {

// proxy_cache_path PATH keys_zone=NAME:SIZE (ngx_http_file_cache.c): a
// cache directory; its files live on the disk mounted at (or above) PATH.
struct ProxyCachePath {
  std::string path;
  std::string keys_zone;
};

struct ThreadPoolConfig {
  std::string name = "default";
  std::uint32_t threads = 32;      // thread_pool default threads=32
  std::uint32_t max_queue = 65536; // thread_pool default max_queue=65536
};

// The member defaults are NGINX 1.9.0's; the scenario loader sets them from
// `version` and the release table (nginx_versions.h) instead.
// [nginx.io_uring]: a ring per worker. entries: io_uring_setup()'s SQ size
// (a power of two, 1 to 32768: IORING_MAX_ENTRIES in io_uring/io_uring.c);
// max_workers: io-wq's bounded workers a ring may run
// (IORING_REGISTER_IOWQ_MAX_WORKERS, Linux 5.15); 0 keeps the kernel's
// default, min(entries, 4 x CPUs) (io_init_wq_offload in io_uring.c).
struct IoUringConfig {
  std::uint32_t entries = 256;
  std::uint32_t max_workers = 0;
  // Set by the loader from the hardware profile's [kernel] release and CPUs:
  // whether reads that would block wait on page callbacks (5.9+) or go to
  // io-wq, and the pool that stands for either (nowait_probe.h).
  // The defaults are what the loader sets for a kernel not named (5.9+):
  // page callbacks, one wait entry per SQ entry (a front end that switches
  // the mode without the loader, as clerk-ui does, gets them).
  bool async_buffered = true;
  std::uint32_t pool_threads = 256;
};

// The least accept_mutex_delay NGINX can wait: it reads the directive in
// whole milliseconds (ngx_conf_set_msec_slot); 0 makes a worker that lost the
// mutex poll epoll_wait without sleeping, which clerk does not model.
inline constexpr double kMinAcceptMutexDelaySeconds = 1e-3;

struct NginxConfig {
  std::string version = "1.9.0";
  std::uint32_t worker_processes = 1;
  const AcceptPolicy* accept = &accept_policy(true, false);  // accept_mutex on (the 1.9.0 default)
  double accept_mutex_delay_s = 0.5;               // accept_mutex_delay 500ms
  bool multi_accept = false;
  // worker_connections (events { }): each worker's connection slots
  // (ngx_cycle->connection_n). 0: not set, no limit (NGINX's own default is
  // 512, DEFAULT_CONNECTIONS in ngx_event.c; listen_sockets.h says what it does).
  std::uint32_t worker_connections = 0;
  // EPOLLEXCLUSIVE (NGINX >= 1.11.3 on Linux >= 4.5, with accept_mutex off):
  // a new connection wakes one sleeping worker instead of all of them.
  bool epoll_exclusive = false;
  std::uint32_t keepalive_requests = 100;          // keepalive_requests 100 (the default)
  // Cloudflare's patch (not in upstream NGINX): open() runs in the thread
  // pool too, so a directory or inode missing from the dentry cache no
  // longer stops the event loop.
  bool aio_open = false;
  // The share of requests that also write to the cache (open(O_CREAT) and
  // rename() of a new cache file): two metadata writes, always in the
  // worker, offloaded or not.
  double cache_fill_rate = 0;
  bool sendfile = true;
  std::uint64_t sendfile_max_chunk = 0;            // 0: no limit (the 1.9.0 default)
  // After a chunk that reached sendfile_max_chunk, NGINX 1.21.4 and later
  // post the connection's next write to the loop's next turn
  // (ngx_post_event(wev, &ngx_posted_next_events) in
  // ngx_http_write_filter_module.c); 1.9.0 to 1.21.3 set a 1 ms timer
  // (ngx_add_timer(wev, 1)). Set from `version` (nginx_versions.h).
  bool write_posted_next = false;
  const AioMode* aio = aio_modes().front();      // aio off (aio_modes.h)
  // directio SIZE: a file of at least this many bytes is opened with
  // O_DIRECT (ngx_open_and_stat_file: of->directio <= file size ->
  // ngx_directio_on) and read through output_buffers, not sendfile()
  // (models/os/direct_io.h). 0: directio off (the default).
  std::uint64_t directio = 0;
  std::uint64_t directio_alignment = 512;          // directio_alignment 512 (the default)
  // output_buffers NUMBER SIZE: the buffers a directio file is read into
  // (ngx_http_copy_filter_module.c); set from `version` (nginx_versions.h).
  std::uint32_t output_buffers_number = 1;
  std::uint64_t output_buffers_size = 32768;
  // open_file_cache and its companions, one cache per worker (open_file_cache.h).
  OpenFileCacheSpec open_file_cache;
  // thread_pool NAME threads=N max_queue=M (ngx_thread_pool.c): `thread_pool`
  // is the first pool declared (the only one of a single [nginx.thread_pool]
  // table), `more_thread_pools` the others of [[nginx.thread_pool]]. Every
  // worker runs every pool's threads (ngx_thread_pool_init_worker).
  ThreadPoolConfig thread_pool;
  std::vector<ThreadPoolConfig> more_thread_pools;
  // aio threads=NAME: the pool's name, which may hold split_clients'
  // variable ("pool_$disk", resolved per request as
  // ngx_http_core_module's aio threads=$var is); empty: the first pool.
  std::string aio_threads_pool;
  // split_clients STRING $variable { ... } (split_clients.h).
  SplitClientsSpec split_clients;
  // proxy_cache ZONE (may hold split_clients' variable, "cache_$disk") and
  // the zones' proxy_cache_path: which directory, so which disk, holds a
  // file. The proxy's cache holds every file (each request a cache hit
  // served with sendfile, as the 9x article's caching proxy once warm);
  // empty: the files are under the root, on [disk].
  std::string proxy_cache;
  std::vector<ProxyCachePath> proxy_cache_paths;
  // aio_nowait (never in NGINX; clerk-serve --aio nowait has it): before a
  // chunk goes to the pool, the worker probes it with preadv2(RWF_NOWAIT)
  // and sends it itself when it is all in the page cache (nowait_probe.h).
  bool aio_nowait = false;
  // aio = "io_uring": the ring and its io-wq workers (nowait_probe.h).
  IoUringConfig io_uring;
  std::uint32_t epoll_events = 512;                // events per epoll_wait (NGX_EVENTS default 512)
  // worker_aio_requests (events { }, ngx_epoll_module.c: io_setup(aio_requests),
  // default 32): io_submit reads in flight per worker with aio on.
  std::uint32_t worker_aio_requests = 32;
  // os = "freebsd": sendfile() with SF_NODISKIO (ngx_freebsd_sendfile_chain.c),
  // which never blocks the loop; what follows a page not resident (EBUSY)
  // depends on the release (freebsd_sendfile.h).
  enum class NoDiskIo : std::uint8_t {
    kOff,           // Linux, or FreeBSD before 1.21.5 without aio: sendfile() blocks on a miss
    kAioPreload,    // FreeBSD, 1.7.11-1.21.4 with aio on: a 1-byte aio_read() preloads, then sendfile() again
    kAsyncSendfile, // FreeBSD 11+, 1.21.5+: sendfile() reads the pages itself without blocking
  };
  bool freebsd = false;
  NoDiskIo nodiskio = NoDiskIo::kOff;
  // A recorded placement (clerk realrun), per client group: that group's
  // connections on each worker. A group with one replaces the accept policy
  // for its connections; empty: the policy decides.
  std::vector<std::vector<std::uint32_t>> placement;
};

}  // namespace models
