#include "models/hardware/drive_view.h"

#include <cstdarg>
#include <cstdio>

#include "models/hardware/block_device.h"

namespace models {

std::string printed(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string out(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  return out;
}

std::vector<DriveView> views_of(const std::vector<const BlockDevice*>& members) {
  std::vector<DriveView> views;
  for (const BlockDevice* m : members) {
    const std::vector<DriveView> v = m->drive_views();
    views.insert(views.end(), v.begin(), v.end());
  }
  return views;
}

}  // namespace models
