// A label cut to a width (ui/text_fit.h; probe 8, F3): a name megabytes long
// is cut with a few measurements, each of a short prefix. The old cut
// dropped one byte at a time and measured the whole rest again: a 1 MB name
// took a million measurements of up to a megabyte each.
#include <imgui.h>

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>

#include "ui/text_fit.h"

namespace {

// 7 pixels per character (a UTF-8 continuation byte adds none), counting
// the calls and the bytes measured.
struct Counted {
  int calls = 0;
  std::size_t bytes = 0;
  ui::TextWidth measure() {
    return [this](const char* begin, const char* end) {
      ++calls;
      bytes += static_cast<std::size_t>(end - begin);
      float w = 0;
      for (const char* c = begin; c < end; ++c)
        if ((static_cast<unsigned char>(*c) & 0xC0) != 0x80) w += 7;
      return w;
    };
  }
};

}  // namespace

TEST_CASE("a 1 MB label is cut to a small width with few measurements") {
  const std::string name(1 << 20, 'g');
  Counted count;
  // (11 + 3) * 7 = 98 <= 100: eleven characters and "...".
  CHECK(ui::fitted({name}, 100, count.measure()) == std::string(11, 'g') + "...");
  // One measurement of the whole name (does it fit as it is?), then about
  // 2 log2(14) of short prefixes; the old loop measured about a million times.
  CHECK(count.calls <= 20);
  CHECK(count.bytes <= name.size() + 1000);
}

TEST_CASE("the cut is the longest prefix that fits, as the byte-by-byte cut found") {
  for (int n : {0, 1, 2, 3, 5, 13, 14, 15, 100, 1000}) {
    const std::string s(static_cast<std::size_t>(n), 'x');
    for (float width : {0.0f, 20.0f, 21.0f, 27.0f, 28.0f, 98.0f, 99.5f, 1e6f}) {
      Counted count;
      std::string expect = s;  // the old loop, for comparison
      while (!expect.empty() && static_cast<float>(expect.size() + 3) * 7 > width) expect.pop_back();
      expect = expect.empty() ? "" : expect + "...";
      if (static_cast<float>(s.size()) * 7 <= width) expect = s;
      INFO("n " << n << " width " << width);
      CHECK(ui::fitted({s}, width, count.measure()) == expect);
    }
  }
}

TEST_CASE("a cut never splits a UTF-8 character") {
  std::string name;
  for (int i = 0; i < 100000; ++i) name += "\xc3\xa9\xe2\x82\xac";  // e-acute (2 bytes), euro sign (3 bytes)
  Counted count;
  const std::string cut = ui::fitted({name}, 100, count.measure());
  // Eleven characters and "...": 5 pairs (25 bytes) and one e-acute (2).
  CHECK(cut == name.substr(0, 27) + "...");
  CHECK(count.calls <= 20);
  // The first form that fits is taken whole.
  CHECK(ui::fitted({name, "short"}, 100, count.measure()) == "short");
}

TEST_CASE("with ImGui's font, a 1 MB label is cut at once and fits") {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(800, 600);
  io.DeltaTime = 1.0f / 60;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  ImGui::NewFrame();
  const std::string name(1 << 20, 'g');
  const std::string cut = ui::fitted({name}, 120);
  CHECK(cut.size() > 3);
  CHECK(cut.size() < 40);
  CHECK(ImGui::CalcTextSize(cut.c_str()).x <= 120);
  CHECK(ImGui::CalcTextSize((name.substr(0, cut.size() - 2) + "...").c_str()).x > 120);  // one more would not fit
  ImGui::EndFrame();
  ImGui::DestroyContext();
}
