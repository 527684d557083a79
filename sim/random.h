// Random streams. Every entity that draws random numbers gets its own stream,
// derived from the run's master seed and a stable stream id, so adding a draw
// in one place never shifts the numbers another place sees.
//
// The generator is xoshiro256** (Blackman and Vigna); the distributions are
// written out here rather than taken from <random>, whose distributions are
// implementation-defined, so that output is the same with any standard library.
// Boost 1.74 has no xoshiro and no portable-distribution guarantee either.
#pragma once
#include <cmath>
#include <cstdint>

namespace sim {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    // SplitMix64 spreads one 64-bit seed over the 256-bit state.
    for (auto& word : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  std::uint64_t next_u64() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n) without modulo bias (Lemire's method).
  std::uint64_t below(std::uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(next_u64()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next_u64()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }
  // Standard normal by the Box-Muller transform (one value per call, so a
  // stream's position never depends on a cached second value).
  double normal() {
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  double lognormal(double median, double sigma) { return median * std::exp(sigma * normal()); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// Derives independent streams from one master seed: stream(kind, index).
class RandomStreams {
 public:
  explicit RandomStreams(std::uint64_t master) : master_(master) {}
  RandomStream stream(std::uint64_t kind, std::uint64_t index = 0) const {
    RandomStream mix(master_ ^ (kind * 0xd1b54a32d192ed03ULL));
    for (std::uint64_t i = 0; i < 2; ++i) mix.next_u64();
    return RandomStream(mix.next_u64() ^ (index * 0x9e3779b97f4a7c15ULL + kind));
  }
  std::uint64_t master() const { return master_; }

 private:
  std::uint64_t master_;
};

}  // namespace sim
