// The closed sets of a scenario that front ends offer as choices: disk kinds,
// `aio` modes and accept policies, each with the word the scenario file uses
// and the words a person reads. One list per set, in its enum's order, so
// that the loader (which reads the file's word), `clerk-ui` (which offers
// the choices) and titles (which name them) cannot disagree or index past
// the end: a table of three disk names once read five disk kinds (issue 22).
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "models/server/nginx_config.h"

namespace models {

template <typename Enum>
struct Choice {
  Enum value;
  const char* key;    // as the scenario file writes it ("" where the file has no single key)
  const char* label;  // for a menu
  const char* brief;  // for a one-line title
};

// [disk] type = "...": one drive (models/hardware/hdd.h), an md RAID10 of
// such drives (raid10.h), the two-figure device (simple_disk.h), no disk
// (every file in the page cache, no_disk.h), an SSD (ssd.h).
inline constexpr std::array<Choice<DiskKind>, 5> kDiskKinds{{
    {DiskKind::kHdd, "hdd", "one drive alone", "one drive"},
    {DiskKind::kRaid10, "raid10", "md RAID10 of the drives", "RAID10"},
    {DiskKind::kSimple, "simple", "simple disk (latency + bandwidth)", "simple disk"},
    {DiskKind::kNone, "none", "no disk (every file in the page cache)", "no disk"},
    {DiskKind::kSsd, "ssd", "SSD", "SSD"},
}};

// aio off; / aio threads; (ngx_http_core_module).
inline constexpr std::array<Choice<AioMode>, 2> kAioModes{{
    {AioMode::kOff, "off", "aio off", "aio off"},
    {AioMode::kThreads, "threads", "aio threads", "aio threads"},
}};

// How connections reach workers: `accept_mutex off|on` (events block) or
// `listen ... reuseport` (the file's [nginx] reuseport = true).
inline constexpr std::array<Choice<AcceptPolicy>, 3> kAcceptPolicies{{
    {AcceptPolicy::kMutexOff, "", "accept_mutex off", "accept_mutex off"},
    {AcceptPolicy::kMutexOn, "", "accept_mutex on", "accept_mutex on"},
    {AcceptPolicy::kReuseport, "", "reuseport", "reuseport"},
}};

// The entry for `value`: every list is in its enum's order (checked below).
template <typename Enum, std::size_t N>
constexpr const Choice<Enum>& choice_of(const std::array<Choice<Enum>, N>& list, Enum value) {
  return list[static_cast<std::size_t>(value)];
}

// The file's words of a list, for the loader's "must be one of".
template <typename Enum, std::size_t N>
std::vector<std::string> choice_keys(const std::array<Choice<Enum>, N>& list) {
  std::vector<std::string> out;
  for (const auto& c : list) out.emplace_back(c.key);
  return out;
}

namespace detail {
template <typename Enum, std::size_t N>
constexpr bool in_enum_order(const std::array<Choice<Enum>, N>& list) {
  for (std::size_t i = 0; i < N; ++i)
    if (static_cast<std::size_t>(list[i].value) != i) return false;
  return true;
}
}  // namespace detail
static_assert(detail::in_enum_order(kDiskKinds) && kDiskKinds.size() == static_cast<std::size_t>(DiskKind::kSsd) + 1);
static_assert(detail::in_enum_order(kAioModes) && kAioModes.size() == static_cast<std::size_t>(AioMode::kThreads) + 1);
static_assert(detail::in_enum_order(kAcceptPolicies) &&
              kAcceptPolicies.size() == static_cast<std::size_t>(AcceptPolicy::kReuseport) + 1);

}  // namespace models
