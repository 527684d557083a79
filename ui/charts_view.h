// Live charts, one point per simulated second, of the figures the 2015
// article measured: outbound traffic as ifstat shows it, requests per second
// and latency per client group as wrk would, and what explains them: the
// page cache's hit ratio, the disk's queue, the workers in D state.
#pragma once
#include "ui/session.h"

namespace ui {

// `b` is null unless the A/B view is on; its series are drawn lighter.
void draw_charts(Session& a, Session* b);

}  // namespace ui
