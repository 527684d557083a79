// Whether this build runs under AddressSanitizer (and its LeakSanitizer):
// GCC says so with __SANITIZE_ADDRESS__, clang with
// __has_feature(address_sanitizer). For what a sanitized build must do
// differently (SimGrid's actor stacks, sg_platform.cpp) or cannot measure
// (peak memory, address-space limits, in tests).
#pragma once

namespace common {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace common
