// Values with units as scenario files write them. Sizes follow nginx.conf
// ("512k", "4m", "44g": powers of 1024); times "8.9ms", "50us", "60s", "1m";
// transfer rates as datasheets give them ("128MB/s", powers of 1000, up to TB/s) or as
// links are rated ("10Gbit/s", up to Tbit/s). Each parser returns false on a malformed value.
#pragma once
#include <cstdint>
#include <string>

namespace models {

bool parse_size(const std::string& text, std::uint64_t& bytes);
// `as_written`, when given: the value the text names, rounded once (the
// power of ten applied to the written decimal: "100us" is the double
// nearest 0.0001), for range checks. The value returned is the number
// times the unit's factor, as every run has used it (within a rounding of
// `as_written`: "100us" gives 9.999999999999999e-05), so that a range's
// ends are not refused for a rounding (limits.h).
bool parse_duration(const std::string& text, double& seconds, double* as_written = nullptr);
bool parse_rate(const std::string& text, double& bytes_per_second, double* as_written = nullptr);

}  // namespace models
