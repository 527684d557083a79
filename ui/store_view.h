// The store view: the picture of the NGINX article drawn from the live model.
// Each worker is a clerk at a counter with its queue of ready connections;
// a clerk in disk wait walks to the warehouse and his queue grows and warms;
// with a thread pool the delivery team carries the orders and the clerk
// stays. Every connection is a dot that glides to wherever its phase puts it.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <vector>

#include "ui/session.h"
#include "ui/store_layout.h"

namespace ui {

// Animation state kept between frames (the model has no positions).
struct StoreAnim {
  std::vector<ImVec2> dot;           // displayed position of each connection
  std::vector<std::uint8_t> placed;  // the dot has a position already
  std::vector<float> walk;           // per clerk: 0 at the counter .. 1 at the warehouse
  StoreLayout layout;                // where the last frame drew each place (a lesson rings them)
  void clear() { dot.clear(); placed.clear(); walk.clear(); }
};

// Draws into `area` of the current window. `dt` is real seconds since the
// last frame (for the gliding); `snap` puts everything in place at once (the
// headless capture).
// `title` heads the view (the configuration, in the A/B view).
void draw_store(Session& s, StoreAnim& anim, Box area, float zoom, ImVec2 pan, float dt, bool snap, const char* title);

}  // namespace ui
