// The `aio` modes: one registry row each (as disk kinds are, in
// models/scenario/disk_kinds.h), saying everything the rest of clerk needs of
// a mode. A mode is its row in aio_modes.cpp and the mechanism its flags
// select; nothing else names it (tests/registry_test.sh checks that).
//  - aio off: a worker reads a file that misses the page cache itself,
//    blocking its event loop (ngx_http_core_module, sendfile in the worker);
//  - aio threads: such reads go to the worker's thread pool (thread_pool.h;
//    ngx_thread_pool.c, NGINX 1.7.11+);
//  - aio on: Linux native AIO (native_aio.h): directio's O_DIRECT reads go
//    to io_submit, other files are sent with sendfile() in the worker.
//  - io_uring (never in NGINX; clerk-serve has it): a ring per worker whose
//    buffered reads are tried inline without blocking and, when they would
//    block, finish in the kernel's io-wq workers or by page-waitqueue
//    callbacks (models/server/nowait_probe.h says which kernel does which).
// [nginx] aio_nowait (the RWF_NOWAIT probe, nowait_probe.h) is a key of its
// own, not a row: it is a step before the pool of any mode that has one.
#pragma once
#include <string>
#include <vector>

namespace models {

struct AioMode {
  const char* name;   // [nginx] aio = "NAME", and clerk-serve's --aio
  const char* label;  // clerk-ui's menu
  const char* brief;  // a title's words
  const char* doc;    // the key reference's words on `aio = "NAME"`
  // Reads that miss the page cache (and, with aio_open, open()) go to the
  // worker's thread pool (thread_pool.h on the native engine, sg_pool.h on
  // SimGrid); the release must have thread pools.
  bool thread_pool = false;
  // directio's O_DIRECT reads go to the worker's Linux AIO context
  // (native_aio.h: io_submit, completion through an eventfd); other reads
  // stay in the worker.
  bool native_aio = false;
  // nginx.conf's `aio` value a real run writes (testbed/realrun); null: no directive.
  const char* conf = nullptr;
  // Why clerk realrun cannot run this mode on this testbed; null when it can.
  const char* realrun_refusal = nullptr;
  // Why the SimGrid engine cannot run this mode; null when it can.
  const char* simgrid_refusal = nullptr;
  // A ring per worker (nowait_probe.h): reads are io_uring SQEs, tried
  // inline with IOCB_NOWAIT, the rest in io-wq or by page callbacks.
  bool io_uring = false;
  // Why a real NGINX cannot run this mode (clerk realrun --server nginx
  // refuses it by these words); null when it can.
  const char* nginx_refusal = nullptr;
  // The first Linux release with the mode, "MAJOR.MINOR" (the loader refuses
  // a hardware profile whose [kernel] release is older); null: any.
  const char* since_linux = nullptr;
};

// Every mode; the first is the default.
const std::vector<const AioMode*>& aio_modes();
const AioMode* find_aio_mode(const std::string& name);
// The index of `mode` in aio_modes().
std::size_t aio_mode_index(const AioMode* mode);

}  // namespace models
