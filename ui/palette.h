// Colours and names shared by every view, so that a running clerk, a
// waiting customer or a disk wait looks the same in the store, the timeline
// and the charts.
//
// Running, sleeping and disk wait are blue, grey and orange, not green, grey
// and red: blue and orange stay apart for viewers with a red-green
// dichromacy (deuteranopia, protanopia), and they differ in lightness too.
// Each stands out at least 3:1 (WCAG 2.1, 1.4.11) against the window and
// every counter background. ui/tests/palette_test.cpp checks both with
// Machado et al.'s simulation (colour_check.h).
#pragma once
#include <imgui.h>

#include <algorithm>
#include <cstdint>

namespace ui {

inline constexpr ImU32 kRunning = IM_COL32(70, 160, 240, 255);    // R: the clerk serves
inline constexpr ImU32 kSleeping = IM_COL32(132, 135, 145, 255);  // S: the clerk waits for customers
inline constexpr ImU32 kDiskWait = IM_COL32(240, 150, 30, 255);   // D: the clerk is at the warehouse
inline constexpr ImU32 kTeam = IM_COL32(175, 125, 235, 255);      // thread-pool threads
inline constexpr ImU32 kCrate = IM_COL32(150, 110, 70, 255);      // disk requests
inline constexpr ImU32 kShelf = IM_COL32(70, 170, 170, 255);      // cached pages
inline constexpr ImU32 kDock = IM_COL32(120, 150, 200, 255);      // the NIC
inline constexpr ImU32 kInk = IM_COL32(220, 225, 235, 255);       // text and outlines
inline constexpr ImU32 kFaint = IM_COL32(120, 125, 140, 255);
inline constexpr ImU32 kPanel = IM_COL32(36, 40, 50, 255);
// A lesson's ring around what to look at: a lime no other view draws, so
// that a test can find it in a capture (ui/tests/lesson_ui_test.sh).
inline constexpr ImU32 kRing = IM_COL32(170, 255, 0, 255);
// The window behind everything: ImGui's dark style, WindowBg (0.06, 0.06, 0.06).
inline constexpr ImU32 kWindow = IM_COL32(15, 15, 15, 255);

// A counter's background by how long its longest-waiting customer has
// waited (counter_tally.h's wait_warmth, 0..1): dark slate, dark amber, dark
// red. All dark, so that the clerk in any state and the white text on it
// keep their contrast.
inline constexpr ImU32 kCounterCool = IM_COL32(34, 40, 52, 255);
inline constexpr ImU32 kCounterWarm = IM_COL32(74, 48, 18, 255);
inline constexpr ImU32 kCounterHot = IM_COL32(96, 24, 28, 255);

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

// A counter's background for a warmth t in 0..1.
inline ImU32 counter_warmth(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  return t < 0.5f ? mix(kCounterCool, kCounterWarm, t * 2) : mix(kCounterWarm, kCounterHot, t * 2 - 1);
}

}  // namespace ui
