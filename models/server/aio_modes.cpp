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

}  // namespace

const std::vector<const AioMode*>& aio_modes() {
  static const std::vector<const AioMode*> rows{&kOff, &kThreads};
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
