#include "bench/counting_alloc.h"

#include <cstdlib>
#include <malloc.h>
#include <new>

namespace bench {

namespace {
HeapCounters counters;

void* take(std::size_t n, std::size_t align) {
  void* p = align <= alignof(std::max_align_t) ? std::malloc(n ? n : 1)
                                                : std::aligned_alloc(align, (n + align - 1) / align * align);
  if (!p) throw std::bad_alloc();
  ++counters.allocations;
  counters.in_use += malloc_usable_size(p);
  if (counters.in_use > counters.peak) counters.peak = counters.in_use;
  return p;
}

void give(void* p) noexcept {
  if (!p) return;
  counters.in_use -= malloc_usable_size(p);
  std::free(p);
}
}  // namespace

const HeapCounters& heap() { return counters; }
void reset_peak() { counters.peak = counters.in_use; }

}  // namespace bench

void* operator new(std::size_t n) { return bench::take(n, 0); }
void* operator new[](std::size_t n) { return bench::take(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return bench::take(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return bench::take(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return bench::take(n, 0);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return bench::take(n, 0);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { bench::give(p); }
void operator delete[](void* p) noexcept { bench::give(p); }
void operator delete(void* p, std::size_t) noexcept { bench::give(p); }
void operator delete[](void* p, std::size_t) noexcept { bench::give(p); }
void operator delete(void* p, std::align_val_t) noexcept { bench::give(p); }
void operator delete[](void* p, std::align_val_t) noexcept { bench::give(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { bench::give(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { bench::give(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { bench::give(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { bench::give(p); }
