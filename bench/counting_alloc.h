// A counting allocator for the benchmark: every operator new and delete of
// the program goes through it (counting_alloc.cpp replaces the global
// ones), so a benchmark can tell how many allocations a run made and how
// much heap it held at its peak.
#pragma once
#include <cstddef>
#include <cstdint>

namespace bench {

struct HeapCounters {
  std::uint64_t allocations = 0;  // calls to operator new
  std::size_t in_use = 0;         // bytes held now
  std::size_t peak = 0;           // bytes held at the highest point since reset_peak()
};

const HeapCounters& heap();
void reset_peak();

}  // namespace bench
