// The one place where what a command throws becomes its exit status.
#pragma once
#include <functional>

namespace common {

// Runs a command and turns what it throws into a message on standard error
// and an exit status: bad input (BadInput, bad_input.h) 2; anything else
// is a bug in clerk: "internal error", a request to report it, and 3. The
// message is shown escaped (shown_text.h), its line ends kept.
int guarded(const std::function<int()>& command);

}  // namespace common
