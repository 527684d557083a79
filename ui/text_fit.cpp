#include "ui/text_fit.h"

#include <imgui.h>

#include "common/utf8.h"

namespace ui {

namespace {
std::size_t char_start(const std::string& s, std::size_t k) { return common::utf8_start_at_or_before(s, k); }
}  // namespace

std::string cut_to_fit(const std::string& s, float width, const TextWidth& measure) {
  std::string probe;
  // Whether the first char_start(k) bytes with "..." fit: never true again
  // once false as k grows.
  const auto fits = [&](std::size_t k) {
    probe.assign(s, 0, char_start(s, k));
    probe += "...";
    return measure(probe.data(), probe.data() + probe.size()) <= width;
  };
  // lo fits (or is 0), hi does not (or is the whole string, which with
  // "..." is no narrower than the string itself).
  std::size_t lo = 0, hi = 1;
  while (hi < s.size() && fits(hi)) {
    lo = hi;
    hi = hi > s.size() / 2 ? s.size() : hi * 2;
  }
  if (hi >= s.size()) {
    hi = s.size();
    if (lo < hi && fits(hi)) lo = hi;
  }
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  const std::size_t cut = char_start(s, lo);
  return cut == 0 ? "" : s.substr(0, cut) + "...";
}

std::string fitted(std::initializer_list<std::string> forms, float width, const TextWidth& measure) {
  for (const std::string& f : forms)
    if (measure(f.data(), f.data() + f.size()) <= width) return f;
  return cut_to_fit(*(forms.end() - 1), width, measure);
}

std::string fitted(std::initializer_list<std::string> forms, float width) {
  return fitted(forms, width, [](const char* begin, const char* end) { return ImGui::CalcTextSize(begin, end).x; });
}

}  // namespace ui
