// A sweep's rows reduced to one line per point: the axis values, how many
// runs (seeds) it had, and each metric's mean with its confidence interval.
#pragma once
#include <string>
#include <vector>

#include "cli/sweep/sweep_rows.h"

namespace cli::sweep {

// CSV: point,<axes>,runs,<metric>.mean,<metric>.ci_low,<metric>.ci_high,...
std::string summary_csv(const Columns& c, const std::vector<Row>& rows, double confidence);
// The metrics the terminal table shows (`clerk sweep --metrics a,b,c`), as
// indexes into `metrics` in the order given. A name is one of the sweep's
// metrics, or the unique ending of one after a dot ("nic_out_gbps_mean",
// "constant.latency_s.p99"). Empty: the first three. An unknown or ambiguous
// name is a SweepError ("--metrics") that lists the valid names.
std::vector<std::size_t> table_columns(const std::vector<std::string>& metrics, const std::string& wanted);
// A table for the terminal: the metrics `shown` (indexes into c.metrics) as mean +- half-width.
std::string summary_text(const Columns& c, const std::vector<Row>& rows, double confidence,
                         const std::vector<std::size_t>& shown);

}  // namespace cli::sweep
