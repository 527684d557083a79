// Cutting a label to a width in pixels with "..." (probe 8, F3). A name may
// be megabytes long (a scenario may be 16 MiB and names have no limit), so
// the cut is searched for, not found by dropping one byte at a time and
// measuring the whole rest again (quadratic: a 200 kB group name took 77 s
// a frame). The measurements are bounded by the width, not by the name:
// prefixes of 1, 2, 4, ... bytes until one no longer fits, then a binary
// search between the last two. A prefix's width never falls as it grows (a
// glyph's advance is never negative), which is what makes the search exact.
#pragma once
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <string>

namespace ui {

// The width of the text from `begin` to `end` in pixels (ImGui::CalcTextSize's x).
using TextWidth = std::function<float(const char* begin, const char* end)>;

// The longest prefix of `s`, cut at a UTF-8 character's start (a cut never
// splits a character; bytes that are not UTF-8 count one by one), that
// fits `width` pixels with "..." after it, and the "..."; "" when not even
// one character does. Measures O(log of the prefix that fits) times, each
// on at most twice that prefix.
std::string cut_to_fit(const std::string& s, float width, const TextWidth& measure);

// The first of `forms` (longest first) that fits `width` pixels, else the
// last cut to fit with "..." (cut_to_fit), else "".
std::string fitted(std::initializer_list<std::string> forms, float width, const TextWidth& measure);
// The same measured with the current ImGui font.
std::string fitted(std::initializer_list<std::string> forms, float width);

}  // namespace ui
