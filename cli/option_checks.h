// Checks shared by the clerk command's options (a command's exceptions
// become exit statuses in common/guarded.h).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace cli {

// --duration: a finite number of seconds in (0, models::limits::kMaxRunSeconds].
CLI::Validator duration_check();
// An output file's name (--json): not empty (an empty --json was ignored).
CLI::Validator file_name_check();
// --seed: a whole number from 0 to 2^63-1 (a scenario's `seed` key allows the same).
CLI::Validator seed_check();

// The report on standard output, flushed: a report lost to a full disk
// (/dev/full), a closed stdout or an I/O error is said, and a run that
// would have exited 0 exits 2 instead (it exited 0 with nothing written).
int flush_standard_output(int status);

}  // namespace cli
