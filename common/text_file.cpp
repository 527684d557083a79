#include "common/text_file.h"

#include <fstream>
#include <sstream>

namespace common {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace common
