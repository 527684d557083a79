#include "common/stale_state.h"

#include <linux/magic.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <set>
#include <string_view>
#include <thread>

#include "common/text_file.h"

namespace common {

namespace fs = std::filesystem;

namespace {

// A child of `root` whose name has a dead owner.
struct StaleEntry {
  std::string path;
  pid_t owner = 0;
};

// lstat: the entry itself, which is_symlink has told from a link already.
bool owned_by_us(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && st.st_uid == ::geteuid();
}

// How an entry's name gives its owner: owner_pid for a cgroup (realrun's
// "<prefix><pid>", calibrate's "<prefix><pid>-fill"), run_folder_owner for a
// folder (mkdtemp's).
using OwnerOf = std::optional<pid_t> (*)(const std::string& name, const std::string& prefix);

std::vector<StaleEntry> stale_children(const std::string& root, const StaleScan& scan, OwnerOf owner_of) {
  std::vector<StaleEntry> found;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
    if (scan.only_ours && !owned_by_us(it->path().string())) continue;
    const auto owner = owner_of(it->path().filename().string(), scan.prefix);
    if (owner && !process_exists(*owner, scan.proc_root)) found.push_back({it->path().string(), *owner});
  }
  return found;
}

std::vector<pid_t> pids_in(const std::string& procs_text) {
  std::vector<pid_t> pids;
  const char* p = procs_text.data();
  const char* end = p + procs_text.size();
  while (p < end) {
    pid_t pid = 0;
    const auto [next, err] = std::from_chars(p, end, pid);
    if (err == std::errc() && pid > 1) pids.push_back(pid);
    p = (err == std::errc()) ? next : p + 1;
  }
  return pids;
}

// Its process group when that is not ours (each child of ours leads its
// own), else the process alone.
void kill_with_group(pid_t pid) {
  const pid_t group = ::getpgid(pid);
  if (group > 1 && group != ::getpgrp())
    ::kill(-group, SIGKILL);
  else
    ::kill(pid, SIGKILL);
}

bool any_alive(const std::vector<pid_t>& pids, const std::string& proc_root) {
  for (pid_t pid : pids)
    if (process_exists(pid, proc_root) && ::kill(pid, 0) == 0) {
      // A zombie (our own child, not yet reaped) is gone for our purpose.
      const std::string stat = read_text(proc_root + "/" + std::to_string(pid) + "/stat");
      const auto close = stat.rfind(')');
      if (close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] != 'Z') return true;
    }
  return false;
}

void wait_gone(const std::vector<pid_t>& pids, const StaleScan& scan) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(scan.kill_wait_s);
  while (any_alive(pids, scan.proc_root) && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// Whether one argument of a command line names `folder` or a path inside it
// ("-p DIR/", "--pid-file=DIR/serve.pid"): the folder's path must end there,
// at a '/' or a space, so that a stale clerk-realrun-12 never matches a live
// clerk-realrun-123-..., and start the argument or follow a '=', ':' or space
// (NGINX's master rewrites its command line into one string,
// "nginx: master process /usr/sbin/nginx -p DIR/ -e ...", ngx_setproctitle()).
bool names_folder(std::string_view arg, std::string_view folder) {
  for (std::size_t at = arg.find(folder); at != std::string_view::npos; at = arg.find(folder, at + 1)) {
    const std::size_t after = at + folder.size();
    const bool starts = at == 0 || arg[at - 1] == '=' || arg[at - 1] == ':' || arg[at - 1] == ' ';
    const bool ends = after == arg.size() || arg[after] == '/' || arg[after] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

bool cmdline_names_folder(const std::string& cmdline, const std::string& folder) {
  std::size_t begin = 0;
  while (begin < cmdline.size()) {
    std::size_t end = cmdline.find('\0', begin);
    if (end == std::string::npos) end = cmdline.size();
    if (names_folder(std::string_view(cmdline).substr(begin, end - begin), folder)) return true;
    begin = end + 1;
  }
  return false;
}

// Processes whose command line names one of `folders` (NGINX -p DIR,
// clerk-serve --pid-file DIR/serve.pid, wrk -s DIR/...).
std::vector<pid_t> processes_naming(const std::vector<StaleEntry>& folders, const std::string& proc_root) {
  std::vector<pid_t> pids;
  if (folders.empty()) return pids;
  std::error_code ec;
  for (fs::directory_iterator it(proc_root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    pid_t pid = 0;
    const auto [next, err] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (err != std::errc() || next != name.data() + name.size() || pid <= 1 || pid == ::getpid()) continue;
    const std::string cmdline = read_text(it->path().string() + "/cmdline");  // arguments, each ended by a NUL
    for (const StaleEntry& folder : folders)
      if (cmdline_names_folder(cmdline, folder.path)) {
        pids.push_back(pid);
        break;
      }
  }
  return pids;
}

bool on_cgroup_fs(const std::string& path) {
  struct statfs fs_info {};
  if (::statfs(path.c_str(), &fs_info) != 0) return false;
  return fs_info.f_type == CGROUP_SUPER_MAGIC || fs_info.f_type == CGROUP2_SUPER_MAGIC;
}

// A cgroup is removed by rmdir (its interface files go with it); a copy of a
// hierarchy on an ordinary file system (the tests') has real files in it.
std::string remove_cgroup(const std::string& path) {
  if (::rmdir(path.c_str()) == 0) return {};
  const int err = errno;
  if (err == ENOTEMPTY && !on_cgroup_fs(path)) {
    std::error_code ec;
    fs::remove_all(path, ec);
    return ec ? ec.message() : std::string();
  }
  return std::strerror(err);
}

void clean_cgroups(const StaleScan& scan, std::vector<std::string>& lines) {
  for (const std::string& root : scan.cgroup_roots)
    for (const StaleEntry& cgroup : stale_children(root, scan, owner_pid)) {
      const std::vector<pid_t> pids = pids_in(read_text(cgroup.path + "/cgroup.procs"));
      for (pid_t pid : pids) kill_with_group(pid);
      wait_gone(pids, scan);
      const std::string error = remove_cgroup(cgroup.path);
      lines.push_back(error.empty() ? fmt::format("removed stale cgroup {} of dead clerk {} ({} processes killed)",
                                                  cgroup.path, cgroup.owner, pids.size())
                                    : fmt::format("cannot remove stale cgroup {} of dead clerk {}: {}", cgroup.path,
                                                  cgroup.owner, error));
    }
}

void clean_folders(const StaleScan& scan, std::vector<std::string>& lines) {
  std::vector<StaleEntry> folders;
  for (const std::string& root : scan.folder_roots)
    for (StaleEntry& folder : stale_children(root, scan, run_folder_owner)) folders.push_back(std::move(folder));
  const std::vector<pid_t> pids = scan.kill_processes ? processes_naming(folders, scan.proc_root) : std::vector<pid_t>();
  for (pid_t pid : pids) {
    kill_with_group(pid);
    lines.push_back(fmt::format("killed stale process {} (its command line names a stale run folder)", pid));
  }
  wait_gone(pids, scan);
  for (const StaleEntry& folder : folders) {
    std::error_code ec;
    fs::remove_all(folder.path, ec);
    lines.push_back(ec ? fmt::format("cannot remove stale folder {} of dead clerk {}: {}", folder.path, folder.owner,
                                     ec.message())
                       : fmt::format("removed stale folder {} of dead clerk {}", folder.path, folder.owner));
  }
}

}  // namespace

std::optional<pid_t> owner_pid(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const char* begin = name.data() + prefix.size();
  const char* end = name.data() + name.size();
  pid_t pid = 0;
  const auto [next, err] = std::from_chars(begin, end, pid);
  if (err != std::errc() || pid <= 0 || *begin == '0' || *begin == '+') return std::nullopt;
  if (next != end && *next != '-') return std::nullopt;
  return pid;
}

std::optional<pid_t> run_folder_owner(const std::string& name, const std::string& prefix) {
  constexpr std::size_t kRandom = 6;  // mkdtemp's XXXXXX
  if (name.size() < prefix.size() + 2 + kRandom) return std::nullopt;
  const std::size_t dash = name.size() - kRandom - 1;
  if (name[dash] != '-') return std::nullopt;
  for (std::size_t i = dash + 1; i < name.size(); ++i) {
    const char c = name[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return std::nullopt;
  }
  // "<prefix><pid>" and nothing more: owner_pid would also take
  // "<prefix><pid>-11" (of clerk-plot-2024-11-Ab12Cd).
  const std::string owner_part = name.substr(0, dash);
  const auto owner = owner_pid(owner_part, prefix);
  if (!owner || owner_part != prefix + std::to_string(*owner)) return std::nullopt;
  return owner;
}

bool process_exists(pid_t pid, const std::string& proc_root) {
  std::error_code ec;
  return fs::exists(proc_root + "/" + std::to_string(pid), ec) || ec;  // unsure: alive
}

std::vector<std::string> remove_stale_state(const StaleScan& scan) {
  std::vector<std::string> lines;
  clean_cgroups(scan, lines);  // first: the server in it may hold the port
  clean_folders(scan, lines);
  return lines;
}

std::string own_state_name(const std::string& base) { return fmt::format("{}-{}", base, ::getpid()); }

}  // namespace common
