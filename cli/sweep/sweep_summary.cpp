#include "cli/sweep/sweep_summary.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "cli/sweep/sweep_stats.h"

namespace cli::sweep {

namespace {

struct PointRows {
  const Row* first = nullptr;
  std::vector<std::vector<double>> metrics;  // per metric, one value per run
};

std::map<std::uint64_t, PointRows> by_point(const Columns& c, const std::vector<Row>& rows) {
  std::map<std::uint64_t, PointRows> points;
  for (const Row& r : rows) {
    PointRows& p = points[r.point];
    if (!p.first) {
      p.first = &r;
      p.metrics.resize(c.metrics.size());
    }
    for (std::size_t m = 0; m < c.metrics.size(); ++m) p.metrics[m].push_back(r.metrics[m]);
  }
  return points;
}

std::string short_number(double v) {
  if (std::isnan(v)) return "-";
  return fmt::format("{:.4g}", v);
}

}  // namespace

std::string summary_csv(const Columns& c, const std::vector<Row>& rows, double confidence) {
  std::string out = "point";
  for (const auto& a : c.axes) out += "," + csv_field(a);
  out += ",runs";
  for (const auto& m : c.metrics) out += "," + csv_field(m + ".mean") + "," + csv_field(m + ".ci_low") + "," + csv_field(m + ".ci_high");
  out += "\n";
  for (const auto& [index, p] : by_point(c, rows)) {
    out += std::to_string(index);
    for (const auto& a : p.first->axes) out += "," + csv_field(a);
    out += "," + std::to_string(p.metrics.empty() ? 0 : p.metrics[0].size());
    for (const auto& values : p.metrics) {
      const Estimate e = estimate(values, confidence);
      out += "," + number_text(e.mean) + "," + number_text(e.low) + "," + number_text(e.high);
    }
    out += "\n";
  }
  return out;
}

std::string summary_text(const Columns& c, const std::vector<Row>& rows, double confidence, std::size_t max_metrics) {
  const std::size_t shown = std::min(max_metrics, c.metrics.size());
  std::vector<std::vector<std::string>> table;
  std::vector<std::string> head = c.axes;
  head.push_back("runs");
  for (std::size_t m = 0; m < shown; ++m) head.push_back(c.metrics[m]);
  table.push_back(head);
  for (const auto& [index, p] : by_point(c, rows)) {
    std::vector<std::string> line = p.first->axes;
    line.push_back(std::to_string(p.metrics.empty() ? 0 : p.metrics[0].size()));
    for (std::size_t m = 0; m < shown; ++m) {
      const Estimate e = estimate(p.metrics[m], confidence);
      line.push_back(std::isnan(e.low) ? short_number(e.mean)
                                       : short_number(e.mean) + " +- " + short_number((e.high - e.low) / 2));
    }
    table.push_back(line);
  }
  std::vector<std::size_t> width(head.size(), 0);
  for (const auto& line : table)
    for (std::size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  std::string out;
  for (const auto& line : table) {
    for (std::size_t i = 0; i < line.size(); ++i) out += fmt::format("{:>{}}  ", line[i], width[i]);
    out.erase(out.find_last_not_of(' ') + 1);
    out += "\n";
  }
  return out + fmt::format("(mean +- half-width of the {:g}% confidence interval over the seeds)\n", confidence * 100);
}

}  // namespace cli::sweep
