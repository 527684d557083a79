// Checks shared by the clerk command's options (a command's exceptions
// become exit statuses in common/guarded.h).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cli {

// --duration: a finite decimal number of seconds (common/number_text.h: no hex)
// in [kMinRunSeconds, kMaxRunSeconds] (models/scenario/limits.h).
CLI::Validator duration_check();
// An output file's name (--json): not empty (an empty --json was ignored).
CLI::Validator file_name_check();
// --seed: a whole number from 0 to 2^63-1 (a scenario's `seed` key allows the same).
CLI::Validator seed_check();

// The outputs of one command as (option, path): throws common::BadInput
// (exit 2) naming both options when two are the same file, by their paths
// made absolute and resolved (what does not exist yet too), or by device
// and inode when both exist (a hard link). The second would overwrite the
// first (compare --figure cmp --json cmp.png left JSON in the figure).
// Special files (/dev/null, a FIFO) may be named twice. Called with the
// other output checks, before any run.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

}  // namespace cli
