// The mean of a point's runs and a confidence interval around it: Student's
// t interval, mean +- t(1 - (1 - c)/2, n - 1) * s / sqrt(n), with s the
// sample standard deviation (n - 1). Seeds are independent replications, so
// the t interval is the textbook choice for a handful of them.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

namespace cli::sweep {

struct Estimate {
  std::size_t n = 0;    // values that are numbers (NaN values are left out)
  double mean = NAN;
  double stdev = NAN;   // NaN below two values
  double low = NAN;     // the interval; NaN below two values
  double high = NAN;
};

Estimate estimate(const std::vector<double>& values, double confidence);

}  // namespace cli::sweep
