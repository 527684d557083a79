#include "ui/series_export.h"

#include <cstdio>

#include "common/output_file.h"
#include "ui/charts_view.h"
#include "ui/heatmap_view.h"

namespace ui {

int write_series(App& app, const std::string& path, double t_s) {
  run_to(app, t_s);
  nlohmann::ordered_json j;
  j["scenario"] = app.a.scenario.name;
  j["file"] = app.path;
  j["seed"] = app.a.seed;
  j["at_s"] = sim::to_seconds(app.a.now());
  // Seconds before this are the warm-up (clerk run --json's per_s start here).
  if (app.a.recorder.warming())
    j["window_start_s"] = nullptr;
  else
    j["window_start_s"] = app.a.recorder.warmup_s();
  j["charts"] = charts_json(app.a, app.ab ? &app.b : nullptr);
  j["heatmaps"] = heatmaps_json(app.a, app.ab ? &app.b : nullptr);
  try {
    common::write_file_atomically(path, j.dump(1) + "\n");
  } catch (const common::OutputError& e) {
    std::fprintf(stderr, "clerk-ui: --series: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace ui
