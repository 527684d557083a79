// One row per run, as CSV and as JSON Lines: the sweep's fingerprint, the run
// id, the point, the seed, the axis values and the metrics. Rows are written
// as whole lines; a reader keeps whole lines only, so a file cut short by a
// kill still reads as the runs it finished.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/sweep/sweep_plan.h"

namespace cli::sweep {

struct Columns {
  std::vector<std::string> axes;
  std::vector<std::string> metrics;
  bool operator==(const Columns&) const = default;
};

struct Row {
  std::string sweep;
  std::uint64_t run = 0, point = 0, seed = 0;
  std::vector<std::string> axes;  // the values' labels
  std::vector<double> metrics;    // NaN: the run has no such figure
  bool operator==(const Row& o) const;  // NaN equals NaN here: same text, same row
};

enum class Format { kCsv, kJsonl };
Format format_of(const std::string& path);  // .jsonl (or .json) is JSON Lines, anything else CSV

Columns columns_of(const Plan& plan);
std::string header(Format f, const Columns& c);  // CSV's first line; nothing for JSON Lines
std::string line(Format f, const Columns& c, const Row& r);

struct RowFile {
  Columns columns;
  bool has_columns = false;  // false for an empty file
  std::vector<Row> rows;
  bool cut_short = false;    // the last line had no newline and was left out
};
// Throws SweepError on a line that is not a row.
RowFile read_rows(const std::string& path);

// RFC 4180 fields, for the summary and plot tables too.
std::string csv_field(const std::string& s);
std::vector<std::string> csv_split(const std::string& line);
std::string number_text(double v);  // shortest text that reads back exactly; "" for NaN

}  // namespace cli::sweep
