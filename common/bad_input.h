// Bad input the user can fix (a scenario's ConfigError, an output file that
// cannot be written): every command exits 2 on it (guarded.h).
#pragma once
#include <stdexcept>

namespace common {

class BadInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace common
