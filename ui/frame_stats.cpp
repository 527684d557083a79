#include "ui/frame_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace ui {

std::string FrameStats::summary() const {
  if (ms.empty()) return "no frames";
  std::vector<double> v = ms;
  std::sort(v.begin(), v.end());
  const auto at = [&](double p) { return v[static_cast<std::size_t>(p / 100 * static_cast<double>(v.size() - 1))]; };
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  const auto n = static_cast<double>(v.size());
  return fmt::format("frames {}  mean {:.2f} ms ({:.1f} fps)  p50 {:.2f}  p95 {:.2f}  p99 {:.2f}  max {:.2f} ms\n"
                     "per frame: model {:.2f} ms, ui {:.2f} ms, render {:.2f} ms, swap {:.2f} ms",
                     v.size(), mean, 1000 / mean, at(50), at(95), at(99), v.back(), sim_ms / n, ui_ms / n,
                     render_ms / n, swap_ms / n);
}

}  // namespace ui
