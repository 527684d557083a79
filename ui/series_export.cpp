#include "ui/series_export.h"

#include <cstdio>

#include "common/output_file.h"
#include "common/shown_text.h"
#include "ui/charts_view.h"
#include "ui/heatmap_view.h"

namespace ui {

int write_series(App& app, const std::string& path, double window_s) {
  if (window_s >= 0)
    run_to_window_time(app, window_s);
  else
    run_to(app, sim::to_seconds(app.a.end()));
  nlohmann::ordered_json j;
  j["scenario"] = app.a.scenario.name;
  j["file"] = app.path;
  j["seed"] = app.a.seed;
  if (const std::optional<double> t = app.a.window_time(app.a.now()))
    j["at_s"] = *t;
  else
    j["at_s"] = nullptr;
  // Seconds before this are the warm-up (clerk run --json's per_s start here).
  if (app.a.recorder.warming())
    j["window_start_s"] = nullptr;
  else
    j["window_start_s"] = app.a.recorder.warmup_s();
  j["charts"] = charts_json(app.a, app.ab ? &app.b : nullptr);
  j["heatmaps"] = heatmaps_json(app.a, app.ab ? &app.b : nullptr);
  // A file or scenario name need not be UTF-8 (a path is bytes): such bytes
  // are written as U+FFFD, where nlohmann's strict dump would throw.
  const std::string text = j.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  try {
    common::write_file_atomically(path, text);
  } catch (const common::OutputError& e) {  // the path: the user's to fix (exit 2)
    std::fprintf(stderr, "clerk-ui: --series: %s\n", common::shown_text(e.what()).c_str());
    return 2;
  }
  return 0;
}

}  // namespace ui
