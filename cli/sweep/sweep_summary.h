// A sweep's rows reduced to one line per point: the axis values, how many
// runs (seeds) it had, and each metric's mean with its confidence interval.
#pragma once
#include <string>
#include <vector>

#include "cli/sweep/sweep_rows.h"

namespace cli::sweep {

// CSV: point,<axes>,runs,<metric>.mean,<metric>.ci_low,<metric>.ci_high,...
std::string summary_csv(const Columns& c, const std::vector<Row>& rows, double confidence);
// A table for the terminal: the first `max_metrics` metrics as mean +- half-width.
std::string summary_text(const Columns& c, const std::vector<Row>& rows, double confidence, std::size_t max_metrics);

}  // namespace cli::sweep
