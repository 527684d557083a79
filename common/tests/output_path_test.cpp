// Output paths checked before any measurement (issue 21, finding 8).
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <utility>

#include "common/output_file.h"
#include "common/output_path.h"

using common::output_path_problem;
namespace fs = std::filesystem;

TEST_CASE("an output path must be a file name in a writable folder", "[output_path]") {
  const fs::path base = fs::temp_directory_path() / ("clerk-output-path-test-" + std::to_string(::getpid()));
  fs::create_directories(base);
  std::ofstream(base / "a-file") << "x";
  CHECK(output_path_problem((base / "new.json").string(), "--json").empty());
  CHECK(output_path_problem((base / "a-file").string(), "--json").empty());  // replaced
  CHECK(output_path_problem("/dev/null", "--json").empty());                  // written directly
  const std::string folder = output_path_problem(base.string(), "--out");
  CHECK(folder.find("--out") != std::string::npos);
  CHECK(folder.find("is a folder") != std::string::npos);
  const std::string missing = output_path_problem((base / "no/such/x.json").string(), "--json");
  CHECK(missing.find("--json") != std::string::npos);
  CHECK(missing.find("no folder") != std::string::npos);
  CHECK(output_path_problem((base / "a-file/x.json").string(), "--json").find("not a folder") != std::string::npos);
  CHECK_FALSE(output_path_problem("", "--json").empty());
  // The writer's rules (::common::check_output_path): a link to a regular file is
  // refused up front, not after a run that then cannot write through it.
  fs::create_symlink(base / "a-file", base / "link.json");
  CHECK(output_path_problem((base / "link.json").string(), "--json").find("symbolic link") != std::string::npos);
  fs::create_symlink(base / "nowhere" / "x", base / "dangling.json");
  CHECK(output_path_problem((base / "dangling.json").string(), "--json").find("leads nowhere") != std::string::npos);
  CHECK(output_path_problem((base.string() + "/"), "--json").find("names a folder") != std::string::npos);
  fs::remove_all(base);
}

// Hostile probe 3, finding 5: access() passed these and the writer failed
// after the work. The temporary ".NAME.XXXXXX" is 8 bytes longer than NAME:
// a 250-byte name is legal but its temporary is not (NAME_MAX 255).
TEST_CASE("an output whose temporary file cannot be created is refused up front", "[output_path]") {
  const fs::path base = fs::temp_directory_path() / ("clerk-temp-probe-test-" + std::to_string(::getpid()));
  fs::create_directories(base);
  const std::string long_name = (base / (std::string(250, 'b') + ".json")).string();
  const std::string problem = output_path_problem(long_name, "--json");
  CHECK(problem.find("temporary file") != std::string::npos);
  CHECK(problem.find("too long") != std::string::npos);
  CHECK(output_path_problem((base / (std::string(240, 'b') + ".json")).string(), "--json").empty());
  CHECK_FALSE(output_path_problem("/proc/x.json", "--json").empty());  // root's access() says writable; it takes no file
  CHECK(fs::is_empty(base));  // the probe's temporary file is removed
  fs::remove_all(base);
}

namespace {
// chattr's `flag` set on `path` while this lives; set() false when it could
// not be (not root: CAP_LINUX_IMMUTABLE; a file system without the flag).
class Chattr {
 public:
  Chattr(std::string path, int flag) : path_(std::move(path)), flag_(flag) { set_ = change(true); }
  ~Chattr() {
    if (set_) change(false);
  }
  Chattr(const Chattr&) = delete;
  Chattr& operator=(const Chattr&) = delete;
  bool set() const { return set_; }

 private:
  bool change(bool on) {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    int flags = 0;
    bool ok = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    if (ok) {
      flags = on ? (flags | flag_) : (flags & ~flag_);
      ok = ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    }
    ::close(fd);
    return ok;
  }
  std::string path_;
  int flag_;
  bool set_ = false;
};
}  // namespace

// Hostile probe 6 (minor): rename(2) over these fails with EPERM, and that
// came only after the whole run.
TEST_CASE("an immutable or append-only output, or one in an append-only folder, is refused up front", "[output_path]") {
  const fs::path base = fs::temp_directory_path() / ("clerk-chattr-test-" + std::to_string(::getpid()));
  fs::create_directories(base / "folder");
  std::ofstream(base / "immutable.json") << "old";
  std::ofstream(base / "append.json") << "old";
  const std::string immutable = (base / "immutable.json").string(), append = (base / "append.json").string();
  {
    const Chattr i(immutable, FS_IMMUTABLE_FL);
    const Chattr a(append, FS_APPEND_FL);
    const Chattr folder((base / "folder").string(), FS_APPEND_FL);
    if (!i.set() || !a.set() || !folder.set()) {
      WARN("chattr +i/+a is not possible here (not root, or a file system without it): not checked");
    } else {
      const std::string i_problem = output_path_problem(immutable, "--json");
      CHECK(i_problem.find("--json") != std::string::npos);
      CHECK(i_problem.find("is immutable") != std::string::npos);
      CHECK(output_path_problem(append, "--json").find("is append-only") != std::string::npos);
      const std::string in_folder = output_path_problem((base / "folder" / "new.json").string(), "--json");
      CHECK(in_folder.find("append-only") != std::string::npos);
      CHECK(fs::is_empty(base / "folder"));  // no temporary left where none could be removed
    }
  }
  CHECK(output_path_problem(immutable, "--json").empty());  // the flags cleared: replaced as any file
  CHECK(output_path_problem((base / "folder" / "new.json").string(), "--json").empty());
  fs::remove_all(base);
}

// Hostile-probe findings 1 and 2: the writer's streamed form (clerk gen-log)
// and the output-is-an-input check.
TEST_CASE("an output that is an input is refused, naming both", "[output_path]") {
  const fs::path base = fs::temp_directory_path() / ("clerk-not-input-test-" + std::to_string(::getpid()));
  fs::create_directories(base);
  std::ofstream(base / "in.toml") << "x";
  fs::create_hard_link(base / "in.toml", base / "hard.json");
  const std::string in = (base / "in.toml").string();
  try {
    common::check_not_an_input((base / "hard.json").string(), {"", (base / "other").string(), in});
    FAIL("a hard link of an input was accepted as an output");
  } catch (const common::OutputError& e) {
    CHECK(std::string(e.what()).find("hard.json") != std::string::npos);
    CHECK(std::string(e.what()).find("the input '" + in + "'") != std::string::npos);
  }
  CHECK_THROWS_AS(common::check_not_an_input(in, {in}), common::OutputError);
  CHECK_NOTHROW(common::check_not_an_input((base / "new.json").string(), {in}));  // not there yet
  CHECK_NOTHROW(common::check_not_an_input("/dev/null", {"/dev/null"}));          // not a regular file
  fs::remove_all(base);
}

TEST_CASE("streamed output: a temporary renamed into place with the umask's mode, removed when not committed",
          "[output_path]") {
  const fs::path base = fs::temp_directory_path() / ("clerk-streamed-test-" + std::to_string(::getpid()));
  fs::create_directories(base);
  const std::string target = (base / "log").string();
  const mode_t old = ::umask(022);
  {
    common::StreamedOutput out(target);
    out.write("partial");
    CHECK_FALSE(fs::exists(target));  // nothing under the target's name until commit
  }
  CHECK(fs::is_empty(base));  // not committed: the temporary is gone
  {
    common::StreamedOutput out(target);
    out.write("a\n");
    out.write("b\n");
    out.commit();
  }
  ::umask(old);
  std::ifstream in(target);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "a\nb\n");
  CHECK((fs::status(target).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
  // A stop asked for between writes: thrown, and the temporary removed.
  {
    common::StreamedOutput out((base / "stopped").string());
    CHECK_THROWS_AS(out.write("x", [] { return true; }), common::StreamedOutput::Stopped);
  }
  CHECK_FALSE(fs::exists(base / "stopped"));
  CHECK(std::distance(fs::directory_iterator(base), fs::directory_iterator()) == 1);
  // /dev/full: the write's failure is thrown at once.
  common::StreamedOutput full("/dev/full");
  CHECK_THROWS_AS(full.write("x"), common::OutputError);
  fs::remove_all(base);
}
