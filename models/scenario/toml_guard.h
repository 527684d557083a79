// A check run on scenario text before toml++ sees it.
//
// Debian 12's toml++ 3.3.0 reaches TOML_UNREACHABLE (undefined behaviour) in
// is_non_ascii_horizontal_whitespace() for most non-ASCII characters in the
// places where it looks for whitespace: outside strings and comments, and
// after a line-ending backslash in a multi-line basic string (upstream
// issues #190 and #295, fixed by pull request #305 in 2026; no Debian
// release has the fix). TOML allows non-ASCII characters only inside
// strings and comments, so outside them they are an error anyway; the one
// legal place is the start of the next line after a line-ending backslash
// in a """ string, which this check also refuses, with a way round it.
// toml++ 3.3.0 also asserts (in debug builds; an optimizer assumption in
// release builds) that a table header's '[' or '[[' and blanks are followed
// by a key: "[" then a line end, '=', '#', ',' and the like are refused here,
// and that a '}' in an array is no value ("a = [}"): refused too.
// Checked by running toml++ built with UBSan and assertions on every input of
// up to 2 bytes and of up to 4 bytes over TOML's punctuation: none reaches
// undefined behaviour once this check passes.
#pragma once
#include <string>
#include <string_view>

namespace models {

struct TomlGuardProblem {
  int line = 0;  // 1-based; 0: none
  std::string message;
  // With no problem: `text` with every character from U+00A1 to U+0499 in a
  // comment or a "..." string rewritten ('?', or its \uXXXX escape), the
  // text to give toml++ (see toml_guard.cpp).
  std::string safe_text;
};

// The first place in `text` that toml++ 3.3.0 cannot be trusted with, or
// (line 0) the text rewritten so that toml++ never tests a character from
// U+00A1 to U+0499 for whitespace (TOML_UNREACHABLE in its
// is_non_ascii_horizontal_whitespace() for exactly those): outside strings
// and comments they are refused, as in '...' strings.
TomlGuardProblem toml_guard(std::string_view text);

}  // namespace models
