// A number written as text, all of it ("32", "99.000000"), read with
// std::from_chars: nullopt for anything else (empty, trailing text, too large
// for T), never an exception, so each reader says in its own words what it
// could not read. For integers, digits only: no sign.
#pragma once
#include <charconv>
#include <optional>
#include <string_view>
#include <type_traits>

namespace common {

template <class T>
std::optional<T> number_text(std::string_view text) {
  if constexpr (std::is_integral_v<T>)
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  T out{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return out;
}

}  // namespace common
