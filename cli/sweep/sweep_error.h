// A bad sweep: where it was written, what it names (an axis, a key, an
// option) and what is wrong, as one message: "spec.toml:12: axis 'k': ...".
// Where and what it names are shown escaped (common/shown_text.h); the
// message may break lines of its own, and quotes user text through
// shown_text where it does.
#pragma once
#include <stdexcept>
#include <string>

#include "common/shown_text.h"

namespace cli::sweep {

class SweepError : public std::runtime_error {
 public:
  SweepError(const std::string& where, const std::string& subject, const std::string& message)
      : std::runtime_error(common::shown_text(where) + ": " +
                           (subject.empty() ? std::string() : common::shown_text(subject) + ": ") + message) {}
};

}  // namespace cli::sweep
