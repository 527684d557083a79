// Values with units as scenario files write them. Sizes follow nginx.conf
// ("512k", "4m", "44g": powers of 1024); times "8.9ms", "50us", "60s", "1m";
// transfer rates as datasheets give them ("128MB/s", powers of 1000) or as
// links are rated ("10Gbit/s"). Each parser returns false on a malformed value.
#pragma once
#include <cstdint>
#include <string>

namespace models {

bool parse_size(const std::string& text, std::uint64_t& bytes);
bool parse_duration(const std::string& text, double& seconds);
bool parse_rate(const std::string& text, double& bytes_per_second);

}  // namespace models
