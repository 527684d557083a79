// Checks on the visualizer's screenshots, for ui_capture_test.sh:
//   png_check nonblank FILE           more than a few colours and some contrast
//   png_check differ A B FRACTION     at least FRACTION of the pixels differ clearly
//   png_check warmer A B              A has many warm (orange/red) pixels and B far fewer
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

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "nonblank" && argc == 3) return nonblank(argv[2]);
  if (cmd == "differ" && argc == 5) return differ(argv[2], argv[3], std::atof(argv[4]));
  if (cmd == "warmer" && argc == 4) return warmer(argv[2], argv[3]);
  std::fprintf(stderr, "usage: png_check nonblank FILE | differ A B FRACTION | warmer A B\n");
  return 2;
}
