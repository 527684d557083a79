// sim::FlatMap against std::unordered_map under random inserts, lookups and
// deletions (deletion by backward shift is the part easy to get wrong).
#include <catch2/catch.hpp>
#include <unordered_map>

#include "sim/flat_map.h"
#include "sim/random.h"

TEST_CASE("the flat map agrees with std::unordered_map") {
  sim::FlatMap map;
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  sim::RandomStream rng(5);
  for (int i = 0; i < 200000; ++i) {
    // Few distinct keys, so that probe runs collide and wrap; high and low bits vary.
    const std::uint64_t key = (rng.below(3000) << 40) | rng.below(8);
    switch (rng.below(3)) {
      case 0: {
        const auto value = static_cast<std::uint32_t>(rng.below(1000000));
        map.put(key, value);
        ref[key] = value;
        break;
      }
      case 1:
        map.erase(key);
        ref.erase(key);
        break;
      default: {
        const auto it = ref.find(key);
        REQUIRE(map.find(key) == (it == ref.end() ? sim::FlatMap::kAbsent : it->second));
      }
    }
    REQUIRE(map.size() == ref.size());
  }
  for (const auto& [key, value] : ref) REQUIRE(map.find(key) == value);
}
