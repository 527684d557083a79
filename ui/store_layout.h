// Where things stand in the store: the street with the customers (wrk's
// connections), the door (the listen queue), one counter per clerk (worker),
// the shelves (page cache), the warehouse (disk) and the loading dock (NIC).
// Pure geometry from the view's rectangle, the zoom and the pan, so that the
// drawing code and the hit testing agree.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <vector>

namespace ui {

struct Box {
  ImVec2 min, max;
  float w() const { return max.x - min.x; }
  float h() const { return max.y - min.y; }
  ImVec2 at(float fx, float fy) const { return ImVec2(min.x + w() * fx, min.y + h() * fy); }
  bool contains(ImVec2 p) const { return p.x >= min.x && p.y >= min.y && p.x < max.x && p.y < max.y; }
};

struct Counter {
  Box cell;
  Box lane;         // the queue in front of the counter
  Box desk;         // the counter itself
  ImVec2 clerk;     // where the clerk stands when serving
  Box bench;        // customers sent aside for the 1 ms timer
  Box team;         // the delivery team (thread pool)
  float spacing;    // distance between two customers in the lane
  int lane_cap;     // customers drawn in the lane; more are counted
};

struct StoreLayout {
  Box all, street, door, shop, shelves, warehouse, dock;
  std::vector<Counter> counters;
  std::vector<Box> drives;  // one bay per drive in the warehouse
  ImVec2 warehouse_door;
  float dot = 3;            // customer radius
};

// `line`: the height of a line of text (ImGui's font size), for the title
// above and the legend below.
StoreLayout layout_store(Box view, std::uint32_t workers, std::uint32_t drives, float zoom, ImVec2 pan, float line = 13.0f);

}  // namespace ui
