#include "common/text_file.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace common {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string read_text_or_throw(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in) throw std::runtime_error("cannot read " + path);
  return s.str();
}

}  // namespace common
