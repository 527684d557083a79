#include "common/guarded.h"

#include <iostream>
#include <new>

#include "common/bad_input.h"
#include "common/shown_text.h"

namespace common {

int guarded(const std::function<int()>& command) {
  try {
    return command();
  } catch (const BadInput& e) {
    // Shown escaped (a message may quote a file name, a value, a line of the
    // input); escaping is idempotent, so a message escaped already is as it was.
    std::cerr << "clerk: " << shown_lines(e.what()) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "clerk: out of memory; please report this bug with the command line and the scenario\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "clerk: internal error: " << shown_lines(e.what())
              << "; please report this bug with the command line and the scenario\n";
    return 3;
  } catch (...) {
    std::cerr << "clerk: internal error; please report this bug with the command line and the scenario\n";
    return 3;
  }
}

}  // namespace common
