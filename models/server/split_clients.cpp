#include "models/server/split_clients.h"

#include <stdexcept>

namespace models {

std::uint32_t murmur_hash2(std::string_view data) {
  // MurmurHash2's constants; nginx seeds h with 0 ^ len.
  constexpr std::uint32_t m = 0x5bd1e995;
  constexpr int r = 24;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t len = data.size();
  std::uint32_t h = static_cast<std::uint32_t>(len);
  while (len >= 4) {
    std::uint32_t k = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                      std::uint32_t{p[3]} << 24;
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
    p += 4;
    len -= 4;
  }
  switch (len) {
    case 3:
      h ^= std::uint32_t{p[2]} << 16;
      [[fallthrough]];
    case 2:
      h ^= std::uint32_t{p[1]} << 8;
      [[fallthrough]];
    case 1:
      h ^= p[0];
      h *= m;
      break;
    default:
      break;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return h;
}

bool parse_split_share(const std::string& text, std::uint32_t& hundredths) {
  if (text == "*") {
    hundredths = 0;
    return true;
  }
  // ngx_atofp(value, len - 1, 2): digits, at most one point, at most two
  // decimals; the result must fit and be more than zero.
  if (text.size() < 2 || text.back() != '%') return false;
  std::uint64_t v = 0;
  int decimals = -1;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (decimals >= 0) return false;
      decimals = 0;
      continue;
    }
    if (c < '0' || c > '9') return false;
    if (decimals >= 0 && ++decimals > 2) return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
    if (v > 100000000) return false;
  }
  for (int d = decimals < 0 ? 0 : decimals; d < 2; ++d) v *= 10;
  if (v == 0 || v > 0xffffffffULL) return false;
  hundredths = static_cast<std::uint32_t>(v);
  return true;
}

bool split_shares_exceed_100(const std::vector<SplitPart>& parts) {
  std::uint64_t sum = 0;
  for (const SplitPart& p : parts) {
    sum = p.percent ? sum + p.percent : 10000;
    if (sum > 10000) return true;
  }
  return false;
}

SplitClients::SplitClients(const std::vector<SplitPart>& parts) {
  if (split_shares_exceed_100(parts)) throw std::invalid_argument("split_clients: percent total is greater than 100%");
  std::uint64_t last = 0;
  for (const SplitPart& p : parts) {
    if (p.percent) last += p.percent * std::uint64_t{0xffffffff} / 10000;
    bounds_.push_back(p.percent ? static_cast<std::uint32_t>(last) : 0);
  }
}

std::size_t SplitClients::part_of(std::string_view key) const {
  const std::uint32_t hash = murmur_hash2(key);
  for (std::size_t i = 0; i < bounds_.size(); ++i)
    if (hash < bounds_[i] || bounds_[i] == 0) return i;
  return bounds_.size();
}

}  // namespace models
