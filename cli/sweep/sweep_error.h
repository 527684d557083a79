// A bad sweep: where it was written, what it names (an axis, a key, an
// option) and what is wrong, as one message: "spec.toml:12: axis 'k': ...".
#pragma once
#include <stdexcept>
#include <string>

namespace cli::sweep {

class SweepError : public std::runtime_error {
 public:
  SweepError(const std::string& where, const std::string& subject, const std::string& message)
      : std::runtime_error(where + ": " + (subject.empty() ? std::string() : subject + ": ") + message) {}
};

}  // namespace cli::sweep
