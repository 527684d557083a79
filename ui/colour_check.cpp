#include "ui/colour_check.h"

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

using Mat = std::array<std::array<double, 3>, 3>;

// Machado et al. 2009, severity 1.0 (their Table, linear RGB to linear RGB).
constexpr Mat kProtanopia = {{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
constexpr Mat kDeuteranopia = {{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
constexpr Mat kTritanopia = {{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};
constexpr Mat kIdentity = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

// IEC 61966-2-1: an 8-bit sRGB channel to linear light.
double linear(std::uint8_t v) {
  const double c = v / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

const Mat& matrix(Vision v) {
  switch (v) {
    case Vision::kProtanopia: return kProtanopia;
    case Vision::kDeuteranopia: return kDeuteranopia;
    case Vision::kTritanopia: return kTritanopia;
    case Vision::kNormal: break;
  }
  return kIdentity;
}

}  // namespace

Lab lab_seen(Rgb c, Vision v) {
  const std::array<double, 3> in{linear(c.r), linear(c.g), linear(c.b)};
  const Mat& m = matrix(v);
  std::array<double, 3> l{};
  for (int i = 0; i < 3; ++i) l[i] = std::clamp(m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2], 0.0, 1.0);
  // Linear sRGB to XYZ (D65), then CIELAB against the D65 white.
  const double x = 0.4124564 * l[0] + 0.3575761 * l[1] + 0.1804375 * l[2];
  const double y = 0.2126729 * l[0] + 0.7151522 * l[1] + 0.0721750 * l[2];
  const double z = 0.0193339 * l[0] + 0.1191920 * l[1] + 0.9503041 * l[2];
  const auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
  const double fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883);
  return Lab{116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

double delta_e(const Lab& a, const Lab& b) { return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }

double relative_luminance(Rgb c) { return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b); }

double contrast_ratio(Rgb a, Rgb b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace ui
