// Writing result files, the one way every command does it (run, validate,
// compare, sweep, plot, calibrate, realrun, clerk-ui's exports). In common/,
// beneath every front end (cli/, ui/, testbed/): it knows nothing of clerk.
//
// A regular file (or a name that does not exist yet) is written to an
// exclusive temporary file in the same folder (mkstemp: an unpredictable
// name, created with O_EXCL, so nothing planted beforehand is followed),
// flushed with fsync, renamed over the target and the folder fsync'd: a
// reader sees the old file or the whole new one, never half of it, and a
// crash leaves no half-written result under the target's name.
//
// A special file (a FIFO, a character device such as /dev/null or a
// terminal) is written directly, never replaced; a socket is refused. A symbolic link
// is followed only when it leads to such a special file (so /dev/stdout
// works); a link to a regular file, a folder, nothing or a loop is refused:
// replacing it would break the link, and writing through it would write
// somewhere other than the folder the user named (the planted-symlink
// attack). A folder, a block device or a missing parent folder is refused.
//
// A temporary file never outlives its step: a stop signal (SIGINT, SIGTERM,
// SIGHUP) that comes between its creation and its rename or removal is held
// (common/stop_signals.h, HeldStopSignals), and only once no temporary is
// left does the signal end the process as it would have (probe 5, finding 4:
// ".NAME.XXXXXX" was left beside the output). Noted before the renames
// begin, it removes the temporaries and replaces nothing; noted during them,
// it lets them all finish (every output replaced) and ends the process
// after the last. Under a handler of the program's own (calibrate, realrun:
// they note a Ctrl-C and go on), the write finishes and that handler runs
// once it is done.
#pragma once
#include "common/bad_input.h"
#include "common/stop_signals.h"
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace common {

// "cannot write 'PATH': REASON"; reason() is REASON alone ("is a folder",
// "no folder 'x'"), for callers that name the option themselves, and path()
// the output it is about (which one of an OutputSet failed).
class OutputError : public BadInput {
 public:
  OutputError(const std::string& path, const std::string& reason)
      : BadInput("cannot write '" + path + "': " + reason), path_(path), reason_(reason) {}
  const std::string& path() const { return path_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string path_;
  std::string reason_;
};

// The one way to write a file (the contract above: a temporary file in the
// same folder, fsync, rename, fsync of the folder; nothing half-written
// under the target's name). Throws OutputError naming the path and the
// reason; common::guarded turns it into "clerk: cannot write ..." and exit 2.
void write_file_atomically(const std::string& path, std::string_view content);

// Several outputs of one command, written together at its end (compare's
// figure and JSON, lesson --handout's two pages, a sweep's files): all or
// none, as far as a file system allows, so that a failure on one (a full
// disk, a link to /dev/full) leaves none of the others replaced while the
// command says it failed (probe 5, finding 9). Each output is refused or
// accepted before anything is written; the special files are written first
// (before any temporary exists); then every other output whole in its
// temporary file, fsync'd, and only when all are on disk are they renamed
// into place. What cannot be taken back: a special file's bytes once
// written (a pipe's reader has them), and the renames already done when a
// later one fails (its target swapped for a folder in between). A stop
// signal while the temporaries are written removes them all and replaces
// nothing; one that comes once the renames have begun lets every rename
// happen, and the process ends after the last: all, never some.
class OutputSet {
 public:
  void add(std::string path, std::string content);
  // Throws OutputError naming the output that failed; then no regular output
  // of the set was replaced.
  void write() const;

 private:
  std::vector<std::pair<std::string, std::string>> files_;
};

// write_new_file's refusal of a name that exists.
class OutputExists : public OutputError {
 public:
  using OutputError::OutputError;
};

// A new name only (clerk new): the same temporary, held the same way, put in
// place by link(2), so that the name appears whole or not at all and never
// replaces a file: OutputExists when it exists (checked first, and again by
// the link, which a file made meanwhile makes fail). A special file counts
// as existing. Throws OutputError for the rest, as write_file_atomically.
void write_new_file(const std::string& path, std::string_view content);

// Checks, before any work is done, that `path` could be written as above
// (its folder exists and is writable, it is not a folder or a link to a
// regular file, it is not immutable or append-only nor its folder
// append-only (chattr +i, +a: rename(2) could not replace it), and the
// temporary file beside it can be created: it is created and removed, so
// a name too long for its temporary or a folder that takes no new file,
// such as /proc, is refused). Throws OutputError. Commands call it on every
// output path before they measure or simulate anything.
void check_output_path(const std::string& path);

// Refuses (OutputError, exit 2) an output that is the same file as one of
// `inputs` (same device and inode, as sweep merge's "is also the output"),
// naming both: writing it would destroy the input the command reads. Inputs
// that do not exist, and outputs that are not regular files (a FIFO,
// /dev/null), are no conflict. Called with the other checks, before any work.
void check_not_an_input(const std::string& output, const std::vector<std::string>& inputs);

// Whether two outputs are one file: the same device and inode when both
// exist (special files other than regular ones, /dev/null twice, are no
// conflict), else the same path once made absolute with its links and
// dot-dots resolved as far as it exists. Commands refuse two outputs that
// are one file before any work (the second would overwrite the first).
bool same_output_file(const std::string& a, const std::string& b);

// The permission bits a new output file gets: 0666 less the umask (as
// open(O_CREAT) would give, not mkstemp's 0600).
unsigned new_file_mode();

// The same rules, for output too large to hold whole (clerk gen-log): the
// target is classified when this is made (a special file opened directly,
// else an exclusive temporary beside it), written piece by piece, each
// write's failure thrown at once (OutputError), and put in place by
// commit(). Destroyed without commit(), the temporary is removed. "-" is
// standard output, written directly.
class StreamedOutput {
 public:
  explicit StreamedOutput(const std::string& path);
  ~StreamedOutput();
  StreamedOutput(const StreamedOutput&) = delete;
  StreamedOutput& operator=(const StreamedOutput&) = delete;
  // Writes all of `content`; `stop` (may be null) is asked between tries,
  // and a true answer throws Stopped, leaving nothing under the target's name.
  // A stop signal held for the temporary (outside a DeferredStopSignals
  // guard) throws Stopped too; the destructor then raises it.
  void write(std::string_view content, bool (*stop)() = nullptr);
  void commit();
  struct Stopped {};

 private:
  std::string path_;
  std::string temp_;  // empty: written directly
  int fd_ = -1;
  unsigned mode_ = 0;
  bool own_fd_ = true;
  std::optional<HeldStopSignals> hold_;  // while the temporary exists
};

}  // namespace common
