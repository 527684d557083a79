// Colours and names shared by every view, so that a running clerk, a
// waiting customer or a disk wait looks the same in the store, the timeline
// and the charts.
#pragma once
#include <imgui.h>

#include <algorithm>
#include <cstdint>

namespace ui {

inline constexpr ImU32 kRunning = IM_COL32(90, 200, 120, 255);    // R: the clerk serves
inline constexpr ImU32 kSleeping = IM_COL32(80, 100, 130, 255);   // S: the clerk waits for customers
inline constexpr ImU32 kDiskWait = IM_COL32(235, 70, 45, 255);    // D: the clerk is at the warehouse
inline constexpr ImU32 kTeam = IM_COL32(175, 125, 235, 255);      // thread-pool threads
inline constexpr ImU32 kCrate = IM_COL32(150, 110, 70, 255);      // disk requests
inline constexpr ImU32 kShelf = IM_COL32(70, 170, 170, 255);      // cached pages
inline constexpr ImU32 kDock = IM_COL32(120, 150, 200, 255);      // the NIC
inline constexpr ImU32 kInk = IM_COL32(220, 225, 235, 255);       // text and outlines
inline constexpr ImU32 kFaint = IM_COL32(120, 125, 140, 255);
inline constexpr ImU32 kPanel = IM_COL32(36, 40, 50, 255);

// Client groups by index: the constant load blue, the random load yellow...
inline ImU32 group_colour(std::uint32_t g) {
  static constexpr ImU32 colours[] = {IM_COL32(250, 205, 80, 255), IM_COL32(90, 175, 255, 255),
                                      IM_COL32(120, 220, 200, 255), IM_COL32(240, 140, 200, 255)};
  return colours[g % 4];
}

inline ImU32 mix(ImU32 a, ImU32 b, float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  const auto ch = [&](int shift) {
    const float x = static_cast<float>((a >> shift) & 0xFF), y = static_cast<float>((b >> shift) & 0xFF);
    return static_cast<ImU32>(x + (y - x) * t) << shift;
  };
  return ch(IM_COL32_R_SHIFT) | ch(IM_COL32_G_SHIFT) | ch(IM_COL32_B_SHIFT) | ch(IM_COL32_A_SHIFT);
}

// A counter's background: cool when its queue is empty, warmer as customers
// pile up (20 waiting is already "hot").
inline ImU32 queue_warmth(float waiting) {
  const ImU32 cool = IM_COL32(40, 55, 80, 255), warm = IM_COL32(150, 90, 30, 255), hot = IM_COL32(190, 35, 25, 255);
  const float t = std::min(waiting / 20.0f, 1.0f);
  return t < 0.5f ? mix(cool, warm, t * 2) : mix(warm, hot, t * 2 - 1);
}

}  // namespace ui
