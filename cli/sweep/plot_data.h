// What a plot shows, taken from a sweep's rows: for each value of the --by
// axis a series, and in it for each x value the mean of the metric over the
// runs (seeds) there, with its confidence interval.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "cli/sweep/sweep_rows.h"
#include "cli/sweep/sweep_stats.h"

namespace cli::sweep {

struct PlotQuery {
  std::string x;                    // an axis
  std::string y;                    // a metric
  std::string by;                   // an axis, or empty
  std::vector<std::string> where;   // "axis=value": keep only those rows
  double confidence = 0.95;
};

struct PlotCell {
  std::size_t x = 0;  // index into PlotData::x_labels
  Estimate y;
};

struct PlotSeries {
  std::string label;  // the --by value ("" without --by)
  std::vector<PlotCell> cells;  // in x order
};

struct PlotData {
  std::vector<std::string> x_labels;  // sorted: numerically when all are numbers
  bool x_numeric = false;
  std::vector<double> x_values;       // when numeric
  std::vector<PlotSeries> series;     // sorted like the x values
  bool by_numeric = false;
};

// gnuplot draws each --by value as a line with its legend entry: 20,000
// took minutes. gather refuses more.
inline constexpr std::size_t kMaxPlotSeries = 1000;

// Throws SweepError: unknown axis or metric, no rows left, or an axis other
// than x and by that still varies (it would mix points into one mean).
PlotData gather(const RowFile& file, const PlotQuery& q);

}  // namespace cli::sweep
