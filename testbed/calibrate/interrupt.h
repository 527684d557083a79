// SIGINT, SIGTERM and SIGHUP during `clerk calibrate`: every child it started
// (nginx and its workers, wrk, fio: common/'s ChildProcess, each in its
// own process group) is killed at once, and the run unwinds.
#pragma once

namespace testbed::calibrate {

// Thrown when SIGINT/SIGTERM/SIGHUP arrived: the caller unwinds, and every
// destructor on the way removes what it made.
struct Interrupted {};

// Installs the handlers (once): on a signal, every live child group gets
// SIGKILL and interrupted() becomes true.
void install_interrupt_handlers();
bool interrupted();
void throw_if_interrupted();

}  // namespace testbed::calibrate
