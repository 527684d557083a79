// Colour arithmetic for checking the palette, not for drawing: how a colour
// looks to a viewer with a red-green (or blue-yellow) dichromacy, how far
// apart two colours look, and how much one stands out against another.
//
// - Dichromacy: Machado, Oliveira and Fernandes, "A Physiologically-based
//   Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009,
//   the severity-1.0 matrices of their published table, applied to linear RGB.
// - Distance: CIE 1976 L*a*b* (D65 white, sRGB primaries per IEC 61966-2-1),
//   Euclidean (Delta E 1976). About 2.3 is a just noticeable difference.
// - Contrast: WCAG 2.1's contrast ratio of relative luminances,
//   (L1 + 0.05) / (L2 + 0.05); success criterion 1.4.11 asks 3:1 of the
//   graphics needed to understand content.
#pragma once
#include <array>
#include <cstdint>

namespace ui {

// An 8-bit sRGB colour.
struct Rgb {
  std::uint8_t r, g, b;
};
// From Dear ImGui's packed IM_COL32 (R in the low byte), alpha ignored.
constexpr Rgb rgb_of(std::uint32_t packed) {
  return Rgb{static_cast<std::uint8_t>(packed & 0xFF), static_cast<std::uint8_t>((packed >> 8) & 0xFF),
             static_cast<std::uint8_t>((packed >> 16) & 0xFF)};
}

enum class Vision { kNormal, kProtanopia, kDeuteranopia, kTritanopia };

using Lab = std::array<double, 3>;
// The colour as a viewer with `v` sees it, in CIELAB.
Lab lab_seen(Rgb c, Vision v);
double delta_e(const Lab& a, const Lab& b);
double relative_luminance(Rgb c);
double contrast_ratio(Rgb a, Rgb b);

}  // namespace ui
