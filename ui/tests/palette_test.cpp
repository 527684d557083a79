// The palette for everyone: running, sleeping and disk wait stay apart for
// viewers with deuteranopia and protanopia (Machado et al. 2009), and each
// stands out 3:1 (WCAG 2.1, 1.4.11) from whatever it is drawn on.
#include <catch2/catch.hpp>

#include "ui/colour_check.h"
#include "ui/palette.h"

namespace {

using ui::Vision;

// Smallest CIELAB distance between R, S and D as `v` sees them.
double min_state_distance(std::uint32_t r, std::uint32_t s, std::uint32_t d, Vision v) {
  const ui::Lab lr = ui::lab_seen(ui::rgb_of(r), v), ls = ui::lab_seen(ui::rgb_of(s), v), ld = ui::lab_seen(ui::rgb_of(d), v);
  return std::min({ui::delta_e(lr, ls), ui::delta_e(lr, ld), ui::delta_e(ls, ld)});
}

// Far enough apart to tell at a glance in a 2-pixel timeline stripe: about
// 17 just noticeable differences (2.3 each).
constexpr double kApart = 40;

}  // namespace

TEST_CASE("colour arithmetic: known values") {
  CHECK(ui::contrast_ratio({0, 0, 0}, {255, 255, 255}) == Approx(21.0));
  CHECK(ui::contrast_ratio({128, 128, 128}, {128, 128, 128}) == Approx(1.0));
  const ui::Lab white = ui::lab_seen({255, 255, 255}, Vision::kNormal);
  CHECK(white[0] == Approx(100).margin(0.01));
  CHECK(white[1] == Approx(0).margin(0.01));
  // The matrices' rows sum to one: greys look the same to every viewer.
  for (Vision v : {Vision::kProtanopia, Vision::kDeuteranopia, Vision::kTritanopia})
    CHECK(ui::delta_e(ui::lab_seen({120, 120, 120}, v), ui::lab_seen({120, 120, 120}, Vision::kNormal)) < 0.05);
  // Pure red and green, far apart to most, are close under deuteranopia.
  const double normal = ui::delta_e(ui::lab_seen({200, 60, 40}, Vision::kNormal), ui::lab_seen({60, 160, 40}, Vision::kNormal));
  const double deutan = ui::delta_e(ui::lab_seen({200, 60, 40}, Vision::kDeuteranopia), ui::lab_seen({60, 160, 40}, Vision::kDeuteranopia));
  CHECK(deutan < normal / 3);
}

TEST_CASE("running, sleeping and disk wait stay distinct under deuteranopia and protanopia") {
  for (Vision v : {Vision::kNormal, Vision::kDeuteranopia, Vision::kProtanopia}) {
    CAPTURE(static_cast<int>(v));
    CHECK(min_state_distance(ui::kRunning, ui::kSleeping, ui::kDiskWait, v) >= kApart);
  }
  // The green and red of the earlier palette did not: its running and disk
  // wait differed only in lightness for a deuteranope.
  CHECK(min_state_distance(IM_COL32(90, 200, 120, 255), IM_COL32(80, 100, 130, 255), IM_COL32(235, 70, 45, 255),
                           Vision::kDeuteranopia) < kApart);
}

TEST_CASE("every clerk state stands out 3:1 from the window and from every counter colour") {
  for (std::uint32_t state : {ui::kRunning, ui::kSleeping, ui::kDiskWait}) {
    CHECK(ui::contrast_ratio(ui::rgb_of(state), ui::rgb_of(ui::kWindow)) >= 3.0);
    for (int k = 0; k <= 20; ++k) {
      const std::uint32_t bg = ui::counter_warmth(static_cast<float>(k) / 20.0f);
      CAPTURE(k);
      CHECK(ui::contrast_ratio(ui::rgb_of(state), ui::rgb_of(bg)) >= 3.0);
      // The counter's text (ink) stays readable as body text (4.5:1, WCAG 1.4.3).
      CHECK(ui::contrast_ratio(ui::rgb_of(ui::kInk), ui::rgb_of(bg)) >= 4.5);
    }
  }
  // The old sleeping colour on the old cool counter: 2:1, nearly invisible.
  CHECK(ui::contrast_ratio({80, 100, 130}, {40, 55, 80}) < 2.1);
}
