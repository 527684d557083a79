// Hover explanations: what a thing in the picture is, in the store's words
// and in the server's, with its current numbers read from the model.
#pragma once
#include <cstdint>
#include <vector>

#include "models/scenario/world.h"

namespace ui {

// Requests queued or in service at each drive of the disk (one for a single drive).
std::vector<std::size_t> drive_queues(models::World& world);
// False for a scenario whose disk kind keeps everything in RAM (disk_kinds.h's in_memory).
bool has_disk(models::World& world);

// The shelves' two figures over the measured window (since t = 0 while the
// warm-up runs), as `clerk run` reports them.
struct ShelfFigures {
  std::uint64_t unit_kib = 0;       // the page cache's lookup unit
  std::uint64_t lookups = 0, responses = 0;
  double hit_ratio = 0;             // lookups of a unit found cached, without waiting
  double responses_waited = 0;      // responses with any wait behind their loop in D (event loop blocked)
};
ShelfFigures shelf_figures(models::World& world);
const char* phase_name(std::uint8_t phase);

void explain_clerk(models::World& world, std::uint32_t worker);
void explain_team(models::World& world, std::uint32_t worker);
void explain_bench(models::World& world, std::uint32_t worker);
void explain_customer(models::World& world, std::uint32_t conn);
void explain_street(models::World& world);
void explain_door(models::World& world);
void explain_shelves(models::World& world);
void explain_drive(models::World& world, std::uint32_t drive);
void explain_dock(models::World& world);

}  // namespace ui
