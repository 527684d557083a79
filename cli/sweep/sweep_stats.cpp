#include "cli/sweep/sweep_stats.h"

#include <boost/math/distributions/students_t.hpp>

namespace cli::sweep {

Estimate estimate(const std::vector<double>& values, double confidence) {
  Estimate e;
  double sum = 0;
  for (double v : values) {
    if (std::isnan(v)) continue;
    ++e.n;
    sum += v;
  }
  if (e.n == 0) return e;
  e.mean = sum / static_cast<double>(e.n);
  if (e.n < 2) return e;
  double sq = 0;
  for (double v : values)
    if (!std::isnan(v)) sq += (v - e.mean) * (v - e.mean);
  e.stdev = std::sqrt(sq / static_cast<double>(e.n - 1));
  const boost::math::students_t t(static_cast<double>(e.n - 1));
  const double q = boost::math::quantile(boost::math::complement(t, (1 - confidence) / 2));
  const double half = q * e.stdev / std::sqrt(static_cast<double>(e.n));
  e.low = e.mean - half;
  e.high = e.mean + half;
  return e;
}

}  // namespace cli::sweep
