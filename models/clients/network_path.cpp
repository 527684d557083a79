#include "models/clients/network_path.h"

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <fmt/format.h>

namespace models {

namespace {
// Between two (percentile, value) points, on a log scale of the value.
double between(const std::pair<double, double>& a, const std::pair<double, double>& b, double p) {
  const double share = (p - a.first) / (b.first - a.first);
  return std::exp(std::log(a.second) + share * (std::log(b.second) - std::log(a.second)));
}
}  // namespace

double Distribution::quantile(double p) const {
  switch (kind) {
    case Kind::kFixed:
      return value;
    case Kind::kLognormal:
      return median * std::exp(sigma * boost::math::quantile(boost::math::normal(), p / 100.0));
    case Kind::kPercentiles:
      break;
  }
  if (p <= table.front().first) return table.front().second;
  if (p >= table.back().first) return table.back().second;
  for (std::size_t i = 1; i < table.size(); ++i)
    if (p <= table[i].first) return between(table[i - 1], table[i], p);
  return table.back().second;
}

double Distribution::draw(sim::RandomStream& rng) const {
  switch (kind) {
    case Kind::kFixed:
      return value;
    case Kind::kLognormal:
      return rng.lognormal(median, sigma);
    case Kind::kPercentiles:
      break;
  }
  return quantile(rng.uniform() * 100.0);
}

std::string Distribution::describe(double scale, const char* unit) const {
  switch (kind) {
    case Kind::kFixed:
      return std::isfinite(value) ? fmt::format("{:.4g} {}", value * scale, unit) : std::string("unlimited");
    case Kind::kLognormal:
      return fmt::format("lognormal, median {:.4g} {}, sigma {:g}", median * scale, unit, sigma);
    case Kind::kPercentiles:
      break;
  }
  std::string s = "percentiles";
  for (const auto& [p, v] : table) s += fmt::format(" p{:g} {:.4g}", p, v * scale);
  return s + " " + unit;
}

std::uint64_t group_stream_index(const std::string& group_name) {
  // FNV-1a, 64 bits.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : group_name) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace models
