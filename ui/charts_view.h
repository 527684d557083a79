// Live charts, one point per simulated second, of the figures the 2015
// article measured: outbound traffic as ifstat shows it, requests per second
// and latency per client group as wrk would, time to first byte and the
// share of responses held up behind a blocked loop (Cloudflare's figures)
// where the run has them, and what explains them: the page cache's hit
// ratio, the disk's queue, the workers in D state.
//
// The charts are data first (build_charts), then drawn: `clerk-ui --series`
// writes the same list, every plotted series, so a test can hold it against
// `clerk run --json` (each series names its counterpart there, if any).
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "ui/plot.h"
#include "ui/session.h"
#include "ui/store_layout.h"

namespace ui {

// `b` is null unless the A/B view is on; its series are drawn lighter.
std::vector<Chart> build_charts(Session& a, Session* b);
// `emphasis`: a client group a lesson points at; the other groups' series
// are faded. `drawn`, when given, gets each chart's rectangle by its id.
// `window_only`: the measured window and the warm-up's last 2 seconds.
void draw_charts(Session& a, Session* b, const std::string& emphasis = "", std::map<std::string, Box>* drawn = nullptr,
                 bool window_only = false);
// The warm-up the charts shade (A's, or the longer of A's and B's).
Shade warmup_shade(Session& a, Session* b);
// Every plotted series, as JSON (NaN, a second without responses, as null).
nlohmann::ordered_json charts_json(Session& a, Session* b);

}  // namespace ui
