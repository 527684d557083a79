// The registry of `aio` modes (aio_modes.h): one row each.
#include "models/server/aio_modes.h"

#include <algorithm>

namespace models {

namespace {

// aio off; (NGINX's default): the worker reads, and blocks, itself.
const AioMode kOff{
    .name = "off",
    .label = "aio off",
    .brief = "aio off",
    .doc = "",
};

// aio threads; (ngx_thread_pool.c): reads that miss the page cache go to the pool.
const AioMode kThreads{
    .name = "threads",
    .label = "aio threads",
    .brief = "aio threads",
    .doc = "reads that miss the page cache go to the thread pool instead of blocking the worker",
    .thread_pool = true,
    .conf = "threads",
};

// aio on; on Linux (ngx_linux_aio_read.c, NGINX built --with-file-aio):
// files at or above `directio` are read with O_DIRECT through io_submit and
// the worker goes on; smaller ones are sent with sendfile() in the worker,
// blocking on a miss as with aio off (nginx.org's aio: "it is necessary to
// enable directio, or otherwise reading will be blocking").
const AioMode kOn{
    .name = "on",
    .label = "aio on (native)",
    .brief = "aio on (Linux native AIO)",
    .doc = "Linux native AIO: files at or above directio are read with O_DIRECT through io_submit (at most "
           "worker_aio_requests in flight, then a blocking read), completed through an eventfd; smaller files are "
           "sent with sendfile() in the worker, which blocks on a miss. Without directio it is aio off",
    .native_aio = true,
    .conf = "on",
    .realrun_refusal = "Linux native AIO needs nginx built --with-file-aio, which Debian's nginx-light (the "
                       "testbed's nginx; nginx -V lists no --with-file-aio) is not, and clerk-serve has no native "
                       "AIO mode",
    .simgrid_refusal = "Linux native AIO (io_submit of O_DIRECT reads; models/server/native_aio.h; not expressed on "
                       "SimGrid yet)",
};

// io_uring: a ring per worker (io_uring_setup, Linux 5.1), never in NGINX.
// Its reads try IOCB_NOWAIT inline in io_uring_enter (io_uring/rw.c
// io_read); one that would block is retried by a page-waitqueue callback
// (io_rw_should_retry, Linux 5.9+ with FMODE_BUF_RASYNC files such as
// ext4's) or punted to the ring's io-wq workers (before 5.9). See
// models/server/nowait_probe.h.
const AioMode kIoUring{
    .name = "io_uring",
    .label = "io_uring",
    .brief = "io_uring",
    .doc = "a ring per worker (never in NGINX; clerk-serve has it): reads that hit the page cache complete inline, "
           "the rest in the kernel's io-wq workers (before Linux 5.9) or by page-waitqueue callbacks (5.9 and later); "
           "[nginx.io_uring] entries and max_workers size it",
    .simgrid_refusal = "a ring per worker with io-wq workers (models/server/nowait_probe.h; not expressed on SimGrid yet)",
    .io_uring = true,
    .nginx_refusal = "NGINX has no io_uring mode (clerk-serve --aio io_uring has)",
    .since_linux = "5.1",
};

}  // namespace

const std::vector<const AioMode*>& aio_modes() {
  static const std::vector<const AioMode*> rows{&kOff, &kThreads, &kOn, &kIoUring};
  return rows;
}

const AioMode* find_aio_mode(const std::string& name) {
  for (const AioMode* m : aio_modes())
    if (name == m->name) return m;
  return nullptr;
}

std::size_t aio_mode_index(const AioMode* mode) {
  const auto& rows = aio_modes();
  return static_cast<std::size_t>(std::find(rows.begin(), rows.end(), mode) - rows.begin());
}

}  // namespace models
