// clerk-ui --series FILE.json: every series the charts plot and every
// latency heat map's columns, written headless (no window) through the
// project's one safe writer (common/output_file.h), as --screenshot writes its PNG.
// Each series and heat map names its counterpart in
// `clerk run --json` ("source"), so a test can hold the two against each
// other (ui/tests/series_match_test.sh).
#pragma once
#include <string>

#include "ui/app.h"

namespace ui {

// Runs the sessions to `window_s` seconds of the measured window (--at;
// through the warm-up first), or to the run's end when it is negative, and
// writes the series: "at_s" is that instant in the window's time,
// "window_start_s" the warm-up before it. The exit status (0, or 2 with the
// reason on stderr when the file cannot be written: the path is the user's to fix).
int write_series(App& app, const std::string& path, double window_s);

}  // namespace ui
