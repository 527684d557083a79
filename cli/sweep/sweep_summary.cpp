#include "cli/sweep/sweep_summary.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "cli/sweep/sweep_error.h"
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

std::vector<std::size_t> table_columns(const std::vector<std::string>& metrics, const std::string& wanted) {
  std::vector<std::size_t> out;
  if (wanted.empty()) {
    for (std::size_t m = 0; m < std::min<std::size_t>(3, metrics.size()); ++m) out.push_back(m);
    return out;
  }
  std::string valid;
  for (const std::string& m : metrics) valid += "\n  " + m;
  const auto fail = [&](const std::string& name, const std::string& why) {
    throw SweepError("--metrics", "'" + name + "'",
                     why + "; the sweep's metrics are (a unique ending after a dot will do; --metric PATH adds one):" +
                         valid);
  };
  std::size_t pos = 0;
  while (pos <= wanted.size()) {
    const std::size_t comma = std::min(wanted.find(',', pos), wanted.size());
    const std::string name = wanted.substr(pos, comma - pos);
    pos = comma + 1;
    if (name.empty()) fail(name, "an empty name");
    std::vector<std::size_t> found;
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const std::string& full = metrics[m];
      if (full == name) {
        found = {m};
        break;
      }
      if (full.size() > name.size() && full.compare(full.size() - name.size(), name.size(), name) == 0 &&
          full[full.size() - name.size() - 1] == '.')
        found.push_back(m);
    }
    if (found.empty()) fail(name, "is not one of this sweep's metrics");
    if (found.size() > 1) fail(name, "names more than one metric");
    out.push_back(found.front());
  }
  return out;
}

std::string summary_text(const Columns& c, const std::vector<Row>& rows, double confidence,
                         const std::vector<std::size_t>& shown) {
  std::vector<std::vector<std::string>> table;
  std::vector<std::string> head = c.axes;
  head.push_back("runs");
  for (const std::size_t m : shown) head.push_back(c.metrics[m]);
  table.push_back(head);
  for (const auto& [index, p] : by_point(c, rows)) {
    std::vector<std::string> line = p.first->axes;
    line.push_back(std::to_string(p.metrics.empty() ? 0 : p.metrics[0].size()));
    for (const std::size_t m : shown) {
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
  out += fmt::format("(mean +- half-width of the {:g}% confidence interval over the seeds)\n", confidence * 100);
  if (shown.size() < c.metrics.size())
    out += fmt::format("({} of {} metrics shown; all are in the summary file; choose with --metrics a,b,c)\n",
                       shown.size(), c.metrics.size());
  return out;
}

}  // namespace cli::sweep
