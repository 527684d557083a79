// The timeline: one row per worker over the last seconds, like a profiler's
// flame chart, coloured by what the worker did in each 10 ms (running green,
// sleeping blue-grey, disk wait red, mixed in proportion); below, one row
// per thread pool shaded by how busy its threads are and, in pink, by the
// length of its queue.
#pragma once
#include "ui/session.h"

namespace ui {

void draw_timeline(Session& a, Session* b, float window_s);

}  // namespace ui
