// Violates an invariant with the default assertion handler in place: the
// ctest assert_aborts expects the message on stderr and SIGABRT.
#include "sim/ring.h"

int main() {
  sim::Ring<int> ring;
  ring.pop_front();  // CLERK_ASSERT: Ring::pop_front on an empty ring
  return 0;
}
