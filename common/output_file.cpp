#include "common/output_file.h"

#include "common/shown_text.h"
#include "common/special_file.h"
#include "common/stop_signals.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <linux/fs.h>
#include <memory>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace common {

namespace {

// Both shown escaped (shown_text.h): a path, and an input named in `why`,
// may hold any byte.
[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw OutputError(shown_text(path), shown_text(why));
}

[[noreturn]] void fail_errno(const std::string& path, const std::string& step) {
  fail(path, step + ": " + std::strerror(errno));
}

enum class Target { kReplace, kDirect };

std::string folder_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

void check_folder(const std::string& path) {
  const std::string folder = folder_of(path);
  struct stat st {};
  if (stat(folder.c_str(), &st) != 0) {
    if (errno == ENOENT) fail(path, "no folder '" + folder + "'");
    if (errno == ENOTDIR) fail(path, "'" + folder + "' is not a folder");
    fail_errno(path, "folder '" + folder + "'");
  }
  if (!S_ISDIR(st.st_mode)) fail(path, "'" + folder + "' is not a folder");
  // The file is written beside its target and renamed: the folder must take new files.
  if (access(folder.c_str(), W_OK | X_OK) != 0) fail_errno(path, "cannot write in folder '" + folder + "'");
}

// The name of the temporary file written beside `target` (mkostemp fills the X's).
std::string temp_pattern(const std::string& target) {
  return folder_of(target) + "/." + std::filesystem::path(target).filename().string() + ".XXXXXX";
}

// A new temporary file beside `target` (mkostemp: created with O_EXCL under
// an unpredictable name), its name in `name`; -1 and errno when it cannot be.
// Callers hold stop signals (HeldStopSignals) until it is renamed or removed.
int make_temporary(const std::string& target, std::string& name) {
  name = temp_pattern(target);
  const int fd = mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0) pause_at_temporary_if_asked(name);
  return fd;
}

// Creates and removes the temporary file the writer will create: access()
// alone passes a name whose temporary is longer than the file system allows
// (NAME_MAX, 255 bytes on ext4: ".NAME.XXXXXX" is 8 longer than NAME) and a
// folder such as /proc that says writable and takes no new file; both
// failed only after the work.
void probe_temporary(const std::string& path) {
  const HeldStopSignals hold;  // a stop signal waits until the temporary is gone
  std::string name;
  const int fd = make_temporary(path, name);
  if (fd < 0) fail_errno(path, "cannot create a temporary file in '" + folder_of(path) + "'");
  close(fd);
  unlink(name.c_str());
}

// The inode flags of `path` (chattr(1)'s: FS_IMMUTABLE_FL...), 0 when they
// cannot be read: no such file, a file system without them, a file this
// user may not open. `extra`: O_DIRECTORY for a folder.
int inode_flags(const std::string& path, int extra) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | extra);
  if (fd < 0) return 0;
  int flags = 0;  // the kernel reads and writes an int, whatever the macro's type says
  if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) flags = 0;
  close(fd);
  return flags;
}

// What the temporary probe cannot see (hostile probe 6: rename(2) failed
// with EPERM only after the whole run): an immutable or append-only target
// cannot be renamed over, and in an append-only folder no name can be
// replaced or removed (the probe's own temporary would be left there).
// Checked before the probe.
void check_replaceable(const std::string& path) {
  const std::string folder = folder_of(path);
  if (inode_flags(folder, O_DIRECTORY) & FS_APPEND_FL)
    fail(path, "folder '" + folder + "' is append-only (chattr +a): no file in it can be replaced");
  const int own = inode_flags(path, O_NOFOLLOW);
  if (own & FS_IMMUTABLE_FL) fail(path, "is immutable (chattr +i): it cannot be replaced");
  if (own & FS_APPEND_FL) fail(path, "is append-only (chattr +a): it cannot be replaced");
}

// What is at `path` decides how it is written (see output_file.h).
Target classify(const std::string& path) {
  if (path.empty()) fail(path, "no file name");
  if (path.back() == '/') fail(path, "names a folder, not a file");
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) fail_errno(path, "lstat");
    check_folder(path);
    return Target::kReplace;
  }
  if (S_ISLNK(st.st_mode)) {
    struct stat to {};
    if (stat(path.c_str(), &to) != 0) fail_errno(path, "is a symbolic link that leads nowhere");
    if (is_special(to.st_mode)) return Target::kDirect;
    if (S_ISSOCK(to.st_mode)) fail(path, "is a symbolic link to a socket, which cannot be opened as a file");
    fail(path, "is a symbolic link; clerk writes through links only to special files such as /dev/stdout "
               "(name the link's target instead)");
  }
  if (S_ISDIR(st.st_mode)) fail(path, "is a folder");
  if (S_ISBLK(st.st_mode)) fail(path, "is a block device");
  if (S_ISSOCK(st.st_mode)) fail(path, "is a socket, which cannot be opened as a file");
  if (is_special(st.st_mode)) return Target::kDirect;
  check_folder(path);
  return Target::kReplace;
}

void write_all(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    const ssize_t n = write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_errno(path, "write");
    content.remove_prefix(static_cast<std::size_t>(n));
  }
}

void write_direct(const std::string& path, std::string_view content) {
  const int fd = open_special(path);
  try {
    write_all(fd, content, path);
  } catch (...) {
    close(fd);
    throw;
  }
  if (close(fd) != 0 && errno != EINTR) fail_errno(path, "close");
}

// The process's umask, read without changing it (Linux 4.7+); 022 if unknown.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8) & 0777);
  return 022;
}

mode_t mode_for(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;  // keep an existing file's mode
  return 0666 & ~current_umask();
}

void sync_folder(const std::string& path) {
  const int dir = open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;  // the rename happened; a folder we cannot open for fsync is not an error
  fsync(dir);
  close(dir);
}

// A temporary file that removes itself unless it was renamed into place.
class TempFile {
 public:
  explicit TempFile(const std::string& target) : target_(target) {
    std::string name;
    fd_ = make_temporary(target, name);
    if (fd_ < 0) fail_errno(target, "creating a temporary file in '" + folder_of(target) + "'");
    name_ = name;
  }
  ~TempFile() {
    if (fd_ >= 0) close(fd_);
    if (!name_.empty()) unlink(name_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  const std::string& target() const { return target_; }
  // Its mode set, on disk and closed: whole, ready to be renamed.
  void finish(mode_t mode) {
    if (fchmod(fd_, mode) != 0) fail_errno(target_, "fchmod");
    if (fsync(fd_) != 0) fail_errno(target_, "fsync");
    const int fd = fd_;
    fd_ = -1;
    if (close(fd) != 0) fail_errno(target_, "close");
  }
  // link(2) rather than rename: the name appears whole, and never replaces
  // a file (OutputExists); the temporary is removed by the destructor.
  void link_into_place() {
    if (link(name_.c_str(), target_.c_str()) != 0) {
      if (errno == EEXIST) throw OutputExists(shown_text(target_), "exists");
      fail_errno(target_, "link");
    }
    sync_folder(target_);
  }
  void rename_into_place() {
    if (rename(name_.c_str(), target_.c_str()) != 0) fail_errno(target_, "rename");
    name_.clear();
    sync_folder(target_);
  }

 private:
  std::string target_;
  std::string name_;
  int fd_ = -1;
};

// Stopped before anything was replaced (checked once, before the first
// rename or link): every temporary removed, then the signal raised (release),
// which by default ends the process here. Alive after it (a
// DeferredStopSignals guard whose command raises it once the guard is gone),
// the outputs are not written, and that is said as the error it is. Under
// the program's own handler (calibrate, realrun: stopping() is false) the
// step goes on: the outputs are written and the handler runs at the release.
void give_up_if_stopped(HeldStopSignals& hold, std::vector<std::unique_ptr<TempFile>>& staged) {
  if (staged.empty() || !hold.stopping()) return;
  const std::string first = staged.front()->target();
  staged.clear();
  const int sig = hold.release();
  fail(first, "stopped by signal " + std::to_string(sig) + " before it was written");
}

struct Output {
  const std::string& path;
  std::string_view content;
};

// Every output of `outputs`, all or none as far as a file system allows
// (OutputSet in output_file.h): each refusal before anything is written;
// the special files first, while no temporary exists (a FIFO waiting for its
// reader holds up no stop signal); then each other output whole in its
// temporary, and the renames only once every one is on disk.
void write_together(const std::vector<Output>& outputs) {
  std::vector<Target> how;
  for (const Output& o : outputs) how.push_back(classify(o.path));
  for (std::size_t i = 0; i < outputs.size(); ++i)
    if (how[i] == Target::kDirect) write_direct(outputs[i].path, outputs[i].content);
  HeldStopSignals hold;  // declared before the temporaries: released after they are gone
  std::vector<std::unique_ptr<TempFile>> staged;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (how[i] != Target::kReplace) continue;
    const mode_t mode = mode_for(outputs[i].path);
    staged.push_back(std::make_unique<TempFile>(outputs[i].path));
    write_all(staged.back()->fd(), outputs[i].content, outputs[i].path);
    staged.back()->finish(mode);
  }
  give_up_if_stopped(hold, staged);
  // A signal from here on is raised when the hold ends, after the last
  // rename: every output is then replaced (all, not none).
  for (const auto& tmp : staged) tmp->rename_into_place();
}

}  // namespace

bool is_special(mode_t mode) { return S_ISFIFO(mode) || S_ISCHR(mode); }

int open_special(const std::string& path, int extra_flags) {
  int fd = -1;
  do fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | extra_flags);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) fail_errno(path, "open");
  struct stat st {};
  if (fstat(fd, &st) != 0 || !is_special(st.st_mode)) {
    close(fd);
    fail(path, "it changed while being opened");
  }
  return fd;
}

void check_output_path(const std::string& path) {
  if (classify(path) != Target::kReplace) return;
  check_replaceable(path);
  probe_temporary(path);
}

void check_not_an_input(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (output.empty() || output == "-" || stat(output.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return;
  for (const std::string& input : inputs) {
    struct stat in {};
    if (!input.empty() && stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
      fail(output, "is the same file as the input '" + input + "'; writing it would destroy that input (choose another output)");
  }
}

namespace {

// The path made absolute with its links and dot-dots resolved as far as it
// exists ("" when even that fails).
std::string resolved(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? std::string() : p.string();
}

}  // namespace

bool same_output_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool a_there = stat(a.c_str(), &sa) == 0, b_there = stat(b.c_str(), &sb) == 0;
  if (a_there && b_there) {
    if (!S_ISREG(sa.st_mode) && !S_ISREG(sb.st_mode)) return false;  // /dev/null twice
    if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino) return true;
  }
  const std::string ra = resolved(a);
  return a == b || (!ra.empty() && ra == resolved(b));
}

unsigned new_file_mode() { return 0666 & ~current_umask(); }

StreamedOutput::StreamedOutput(const std::string& path) : path_(path) {
  if (path == "-") {
    fd_ = STDOUT_FILENO;
    own_fd_ = false;
    return;
  }
  if (classify(path) == Target::kDirect) {
    fd_ = open_special(path);
    return;
  }
  mode_ = mode_for(path);
  hold_.emplace();  // until the temporary is renamed or removed
  std::string name;
  fd_ = make_temporary(path, name);
  if (fd_ < 0) fail_errno(path, "creating a temporary file in '" + folder_of(path) + "'");
  temp_ = name;
}

StreamedOutput::~StreamedOutput() {
  if (fd_ >= 0 && own_fd_) close(fd_);
  if (!temp_.empty()) unlink(temp_.c_str());
  hold_.reset();  // after the temporary is gone: a stop signal held is raised now
}

void StreamedOutput::write(std::string_view content, bool (*stop)()) {
  while (!content.empty()) {
    if ((stop && stop()) || (hold_ && hold_->stopping())) throw Stopped{};
    const ssize_t n = ::write(fd_, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_errno(path_, "write");
    content.remove_prefix(static_cast<std::size_t>(n));
  }
}

void StreamedOutput::commit() {
  if (!own_fd_) return;  // standard output: the caller's
  const int fd = fd_;
  fd_ = -1;
  if (temp_.empty()) {
    if (close(fd) != 0 && errno != EINTR) fail_errno(path_, "close");
    return;
  }
  if (fchmod(fd, static_cast<mode_t>(mode_)) != 0 || fsync(fd) != 0) {
    const int e = errno;
    close(fd);
    errno = e;
    fail_errno(path_, "fsync");
  }
  if (close(fd) != 0) fail_errno(path_, "close");
  if (rename(temp_.c_str(), path_.c_str()) != 0) fail_errno(path_, "rename");
  temp_.clear();
  hold_.reset();
  sync_folder(path_);
}

void write_file_atomically(const std::string& path, std::string_view content) { write_together({{path, content}}); }

void write_new_file(const std::string& path, std::string_view content) {
  if (path.empty()) fail(path, "no file name");
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) throw OutputExists(shown_text(path), "exists");
  check_folder(path);
  HeldStopSignals hold;  // declared before the temporary: released after it is gone
  std::vector<std::unique_ptr<TempFile>> staged;
  staged.push_back(std::make_unique<TempFile>(path));
  write_all(staged.back()->fd(), content, path);
  staged.back()->finish(static_cast<mode_t>(new_file_mode()));
  give_up_if_stopped(hold, staged);
  staged.back()->link_into_place();
}

void OutputSet::add(std::string path, std::string content) { files_.emplace_back(std::move(path), std::move(content)); }

void OutputSet::write() const {
  std::vector<Output> outputs;
  for (const auto& [path, content] : files_) outputs.push_back({path, content});
  write_together(outputs);
}

}  // namespace common
