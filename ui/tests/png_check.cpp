// Checks on the visualizer's screenshots, for ui_capture_test.sh:
//   png_check nonblank FILE           more than a few colours and some contrast
//   png_check differ A B FRACTION     at least FRACTION of the pixels differ clearly
//   png_check warmer A B              A has many warm (orange/red) pixels and B far fewer
//   png_check ring FILE X0 Y0 X1 Y1   a lesson's ring (palette.h kRing) is drawn on that rectangle's edges
//   png_check noring FILE X0 Y0 X1 Y1 and here it is not
//   png_check customer FILE X Y       the followed customer (ui/replay.cpp kCustomer) is drawn at that point
// Warm pixels are what a blocked store shows: counters whose queue grew and
// clerks in disk wait; the unblocked store has neither.
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>

namespace {

struct Image {
  int w = 0, h = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> px{nullptr, stbi_image_free};
  const unsigned char* at(long i) const { return px.get() + i * 4; }
  long size() const { return static_cast<long>(w) * h; }
};

Image load(const char* path) {
  Image im;
  int channels = 0;
  im.px.reset(stbi_load(path, &im.w, &im.h, &channels, 4));
  if (!im.px) {
    std::fprintf(stderr, "png_check: cannot read %s: %s\n", path, stbi_failure_reason());
    std::exit(2);
  }
  return im;
}

bool warm(const unsigned char* p) { return p[0] >= 140 && p[0] >= p[1] + 50 && p[0] >= p[2] + 70; }

int nonblank(const char* path) {
  const Image im = load(path);
  std::set<int> colours;
  double sum = 0, sum2 = 0;
  for (long i = 0; i < im.size(); ++i) {
    const unsigned char* p = im.at(i);
    colours.insert((p[0] >> 4) << 8 | (p[1] >> 4) << 4 | (p[2] >> 4));
    const double y = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
    sum += y;
    sum2 += y * y;
  }
  const double n = static_cast<double>(im.size()), mean = sum / n;
  const double sd = std::sqrt(std::max(0.0, sum2 / n - mean * mean));
  std::printf("%s: %dx%d, %zu colours, luminance sd %.1f\n", path, im.w, im.h, colours.size(), sd);
  return colours.size() >= 8 && sd >= 10 ? 0 : 1;
}

int differ(const char* a_path, const char* b_path, double fraction) {
  const Image a = load(a_path), b = load(b_path);
  if (a.w != b.w || a.h != b.h) {
    std::printf("sizes differ: %dx%d and %dx%d\n", a.w, a.h, b.w, b.h);
    return 1;
  }
  long diff = 0;
  for (long i = 0; i < a.size(); ++i)
    for (int c = 0; c < 3; ++c)
      if (std::abs(a.at(i)[c] - b.at(i)[c]) > 32) {
        ++diff;
        break;
      }
  const double f = static_cast<double>(diff) / static_cast<double>(a.size());
  std::printf("%.1f%% of pixels differ (need %.1f%%)\n", f * 100, fraction * 100);
  return f >= fraction ? 0 : 1;
}

int warmer(const char* a_path, const char* b_path) {
  const Image a = load(a_path), b = load(b_path);
  long wa = 0, wb = 0;
  for (long i = 0; i < a.size(); ++i) wa += warm(a.at(i));
  for (long i = 0; i < b.size(); ++i) wb += warm(b.at(i));
  std::printf("warm pixels: %ld in %s, %ld in %s\n", wa, a_path, wb, b_path);
  // The counters' colour is the customers' longest wait (a pool's queue
  // makes them warm too, and a cold start's open() blocks clerks with the
  // pool): the blocked store must be warm, and warmer than the other.
  return wa * 200 >= a.size() && wa > wb ? 0 : 1;
}

// kRing, IM_COL32(170, 255, 0): lime, drawn by no other view.
bool ring_colour(const unsigned char* p) { return std::abs(p[0] - 170) <= 40 && p[1] >= 215 && p[2] <= 60; }

// The share of the rectangle's edges (corners left out: the ring is rounded)
// where a ring pixel lies within 2 pixels across the edge.
double ring_share(const Image& im, int x0, int y0, int x1, int y1) {
  const auto ring_near = [&](int x, int y, bool vertical) {
    for (int d = -2; d <= 2; ++d) {
      const int px = vertical ? x + d : x, py = vertical ? y : y + d;
      if (px < 0 || py < 0 || px >= im.w || py >= im.h) continue;
      if (ring_colour(im.at(static_cast<long>(py) * im.w + px))) return true;
    }
    return false;
  };
  long samples = 0, found = 0;
  constexpr int corner = 8;
  for (int x = x0 + corner; x <= x1 - corner; ++x)
    for (int y : {y0, y1}) {
      ++samples;
      found += ring_near(x, y, false);
    }
  for (int y = y0 + corner; y <= y1 - corner; ++y)
    for (int x : {x0, x1}) {
      ++samples;
      found += ring_near(x, y, true);
    }
  return samples ? static_cast<double>(found) / static_cast<double>(samples) : 0;
}

int ring(const char* path, char** corners, bool want) {
  const Image im = load(path);
  const int x0 = std::atoi(corners[0]), y0 = std::atoi(corners[1]), x1 = std::atoi(corners[2]), y1 = std::atoi(corners[3]);
  if (x1 - x0 < 20 || y1 - y0 < 20) {
    std::printf("%s: rectangle %d,%d-%d,%d too small to check\n", path, x0, y0, x1, y1);
    return 1;
  }
  const double share = ring_share(im, x0, y0, x1, y1);
  std::printf("%s: ring on %.0f%% of the edges of %d,%d-%d,%d (%s)\n", path, share * 100, x0, y0, x1, y1,
              want ? "need 90%" : "need under 20%");
  return want ? (share >= 0.9 ? 0 : 1) : (share < 0.2 ? 0 : 1);
}

// The replay's customer colour, IM_COL32(255, 120, 200): pink, used by nothing else in the store.
bool customer_colour(const unsigned char* p) { return p[0] >= 225 && std::abs(p[1] - 120) <= 30 && std::abs(p[2] - 200) <= 30; }

// Most of the 9x9 pixels around (x, y) are the customer's body.
int customer(const char* path, int x, int y) {
  const Image im = load(path);
  int found = 0, samples = 0;
  for (int dy = -4; dy <= 4; ++dy)
    for (int dx = -4; dx <= 4; ++dx) {
      const int px = x + dx, py = y + dy;
      if (px < 0 || py < 0 || px >= im.w || py >= im.h) continue;
      ++samples;
      found += customer_colour(im.at(static_cast<long>(py) * im.w + px));
    }
  std::printf("%s: %d of %d pixels around %d,%d in the customer's colour (need half)\n", path, found, samples, x, y);
  return samples > 0 && found * 2 >= samples ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "nonblank" && argc == 3) return nonblank(argv[2]);
  if (cmd == "differ" && argc == 5) return differ(argv[2], argv[3], std::atof(argv[4]));
  if (cmd == "warmer" && argc == 4) return warmer(argv[2], argv[3]);
  if ((cmd == "ring" || cmd == "noring") && argc == 7) return ring(argv[2], argv + 3, cmd == "ring");
  if (cmd == "customer" && argc == 5) return customer(argv[2], std::atoi(argv[3]), std::atoi(argv[4]));
  std::fprintf(stderr, "usage: png_check nonblank FILE | differ A B FRACTION | warmer A B | ring|noring FILE X0 Y0 X1 Y1 | customer FILE X Y\n");
  return 2;
}
