// Jain's fairness index of an allocation: (sum x)^2 / (n * sum x^2), from 1/n
// (one gets everything) to 1 (all equal).
#pragma once
#include <vector>

namespace sim {

inline double jain_index(const std::vector<double>& x) {
  double sum = 0, sum_sq = 0;
  for (double v : x) {
    sum += v;
    sum_sq += v * v;
  }
  return sum_sq > 0 ? sum * sum / (static_cast<double>(x.size()) * sum_sq) : 1.0;
}

}  // namespace sim
