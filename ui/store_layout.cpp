#include "ui/store_layout.h"

#include <algorithm>
#include <cmath>

namespace ui {

namespace {
Box sub(const Box& b, float x0, float y0, float x1, float y1) { return Box{b.at(x0, y0), b.at(x1, y1)}; }
}  // namespace

StoreLayout layout_store(Box view, std::uint32_t workers, std::uint32_t drives, float zoom, ImVec2 pan, float line) {
  StoreLayout l;
  const ImVec2 origin(view.min.x + pan.x, view.min.y + pan.y);
  l.all = Box{origin, ImVec2(origin.x + view.w() * zoom, origin.y + view.h() * zoom)};
  // A line for the title, then the places from left to right.
  const float top = (line + 5) / std::max(l.all.h(), 1.0f), bottom = 1.0f - (line + 3) / std::max(l.all.h(), 1.0f);
  l.street = sub(l.all, 0.0f, top, 0.12f, bottom);
  l.door = sub(l.all, 0.125f, top, 0.145f, bottom);
  l.shop = sub(l.all, 0.155f, top, 0.715f, bottom);
  l.shelves = sub(l.all, 0.735f, top, 1.0f, 0.33f);
  l.warehouse = sub(l.all, 0.735f, 0.36f, 1.0f, 0.74f);
  l.dock = sub(l.all, 0.735f, 0.77f, 1.0f, bottom);
  l.warehouse_door = ImVec2(l.warehouse.min.x + 4, l.warehouse.min.y + l.warehouse.h() * 0.5f);

  // Counters in a grid whose cells are about twice as wide as tall: a
  // counter needs room for its queue on the left and its team on the right.
  const float n = static_cast<float>(std::max<std::uint32_t>(workers, 1));
  const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(n * l.shop.w() / (l.shop.h() * 2.2f)))));
  const int rows = static_cast<int>(std::ceil(n / static_cast<float>(cols)));
  const float cw = l.shop.w() / static_cast<float>(cols), ch = l.shop.h() / static_cast<float>(rows);
  l.dot = std::clamp(ch * 0.045f, 1.2f, 4.0f);
  for (std::uint32_t i = 0; i < workers; ++i) {
    const float x = l.shop.min.x + cw * static_cast<float>(i % static_cast<std::uint32_t>(cols));
    const float y = l.shop.min.y + ch * static_cast<float>(i / static_cast<std::uint32_t>(cols));
    Counter c;
    c.cell = Box{ImVec2(x + 2, y + 2), ImVec2(x + cw - 2, y + ch - 2)};
    c.lane = sub(c.cell, 0.03f, 0.22f, 0.52f, 0.62f);
    c.desk = sub(c.cell, 0.54f, 0.18f, 0.58f, 0.68f);
    c.clerk = c.cell.at(0.64f, 0.42f);
    c.bench = sub(c.cell, 0.03f, 0.72f, 0.52f, 0.95f);
    c.team = sub(c.cell, 0.72f, 0.18f, 0.98f, 0.95f);
    c.spacing = std::max(l.dot * 2.3f, 2.5f);
    const int per_row = std::max(1, static_cast<int>(c.lane.w() / c.spacing));
    const int lane_rows = std::max(1, static_cast<int>(c.lane.h() / c.spacing));
    c.lane_cap = per_row * lane_rows;
    l.counters.push_back(c);
  }
  const float bay_w = (l.warehouse.w() - 24) / static_cast<float>(std::max<std::uint32_t>(drives, 1));
  for (std::uint32_t d = 0; d < drives; ++d) {
    const float x = l.warehouse.min.x + 20 + bay_w * static_cast<float>(d);
    l.drives.push_back(Box{ImVec2(x + 2, l.warehouse.min.y + line + 5), ImVec2(x + bay_w - 2, l.warehouse.max.y - 4)});
  }
  return l;
}

}  // namespace ui
