#include "cli/new_command.h"
#include "cli/commands.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "cli/toml_string.h"
#include "common/finite_range.h"
#include "common/shown_text.h"
#include "common/output_file.h"
#include "common/temp_dir.h"
#include "models/scenario/disk_kinds.h"
#include "models/server/aio_modes.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/units.h"
#include "models/server/nginx_versions.h"

namespace cli {

namespace {

// "key = value" and its comment, the comments lined up.
std::string line(const std::string& assignment, const std::string& comment = "") {
  if (comment.empty()) return assignment + "\n";
  return fmt::format("{:<34}# {}\n", assignment, comment);
}

// The [nginx] lines whose defaults differ between known releases, from the
// release table the loader reads (models/server/nginx_versions.h), with the
// CHANGES entry that moved each.
std::string nginx_defaults(const std::string& version) {
  const std::optional<models::NginxReleaseDefaults> d = models::nginx_release_defaults(version);
  if (!d)
    throw std::invalid_argument("--nginx: a release like 1.24.0, one of " + models::nginx_known_releases_text() +
                                " (got '" + version + "')");
  std::string out = line(fmt::format("version = \"{}\"", version), "the defaults below are this release's");
  out += d->accept_mutex ? line("accept_mutex = \"on\"", "on by default before 1.11.3")
                         : line("accept_mutex = \"off\"", "off by default since 1.11.3 (CHANGES)");
  out += d->epoll_exclusive ? line("epoll_exclusive = true", "1.11.3+: EPOLLEXCLUSIVE (Linux 4.5+) with accept_mutex off")
                            : line("epoll_exclusive = false", "EPOLLEXCLUSIVE came with 1.11.3");
  out += line(fmt::format("keepalive_requests = {}", d->keepalive_requests),
              d->keepalive_requests == 1000 ? "the default since 1.19.10 (100 before)" : "the default before 1.19.10");
  out += d->sendfile_max_chunk ? line(fmt::format("sendfile_max_chunk = \"{}m\"", d->sendfile_max_chunk >> 20),
                                      "the default since 1.21.4 (no limit before)")
                               : line("sendfile_max_chunk = 0", "no limit: the default before 1.21.4");
  return out;
}

// "100k": one size; "20k-200k": one class; "20k-200k:0.99,5m-50m:0.01": classes.
std::string file_sizes_line(const std::string& spec) {
  const std::string form = "--file-sizes: SIZE, MIN-MAX or MIN-MAX:SHARE,... like 20k-200k:0.99,5m-50m:0.01 (got '" + spec + "')";
  std::vector<std::string> parts;
  std::stringstream in(spec);
  for (std::string p; std::getline(in, p, ',');) parts.push_back(p);
  if (parts.empty()) throw std::invalid_argument(form);
  std::uint64_t bytes = 0;
  if (parts.size() == 1 && parts[0].find('-') == std::string::npos) {
    if (!models::parse_size(parts[0], bytes)) throw std::invalid_argument(form);
    return fmt::format("file_size = \"{}\"", parts[0]);
  }
  std::string out = "file_sizes = [";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::size_t dash = parts[i].find('-'), colon = parts[i].find(':');
    std::string share = "1.0";
    if (colon != std::string::npos) share = parts[i].substr(colon + 1);
    else if (parts.size() > 1) throw std::invalid_argument(form);
    const std::string lo = parts[i].substr(0, dash), hi = parts[i].substr(dash + 1, colon == std::string::npos ? std::string::npos : colon - dash - 1);
    char* end = nullptr;
    const double w = std::strtod(share.c_str(), &end);
    if (dash == std::string::npos || !models::parse_size(lo, bytes) || !models::parse_size(hi, bytes) || *end || !(w > 0))
      throw std::invalid_argument(form);
    out += fmt::format("{}{{share = {}, min = \"{}\", max = \"{}\"}}", i ? ", " : "", share, lo, hi);
  }
  return out + "]";
}

// "uniform", "zipf:1.0", "hot:0.02:0.9".
std::string popularity_lines(const std::string& spec) {
  const std::string form = "--popularity: uniform, zipf:EXPONENT or hot:FILES:SHARE, like hot:0.02:0.9 (got '" + spec + "')";
  if (spec == "uniform") return line("popularity = \"uniform\"", "every file alike");
  double a = 0, b = 0;
  char tail = 0;
  if (std::sscanf(spec.c_str(), "zipf:%lf%c", &a, &tail) == 1 && a >= 0 && a <= 10)
    return line("popularity = \"zipf\"") +
           line(fmt::format("zipf_exponent = {:g}", a), "the file of rank k asked for in proportion to 1/k^s");
  if (std::sscanf(spec.c_str(), "hot:%lf:%lf%c", &a, &b, &tail) == 2 && a > 0 && a <= 1 && b >= 0 && b <= 1)
    return line("popularity = \"hot\"") +
           line(fmt::format("hot = {{files = {:g}, share = {:g}}}", a, b),
                fmt::format("{:g}% of the requests go to {:g}% of the files", b * 100, a * 100));
  throw std::invalid_argument(form);
}

// Without --disk or --hardware: a SATA SSD (Intel DC S3700), 24 CPUs, 10 Gbit/s.
constexpr const char* kDefaultPreset = "edge-sata-ssd";

std::string preset_for(const NewArgs& a) {
  if (!a.hardware.empty()) return a.hardware;
  if (a.disk.empty()) return kDefaultPreset;
  return models::find_disk_kind(a.disk)->preset;  // the option checks it has one
}

// The include line's file: a preset as "@hardware/NAME", or a profile
// file named by its path (clerk calibrate's), made absolute.
std::string include_of(const NewArgs& a) {
  const std::string h = preset_for(a);
  if (h.find('/') == std::string::npos && !h.ends_with(".toml")) return "@hardware/" + h;
  return std::filesystem::absolute(h).lexically_normal().string();
}

// The aio mode written: --aio's, else the first with a thread pool.
std::string aio_of(const NewArgs& a) {
  if (!a.aio.empty()) return a.aio;
  for (const models::AioMode* m : models::aio_modes())
    if (m->thread_pool) return m->name;
  return models::aio_modes().front()->name;
}

// The disk kinds with a preset, for --disk: their names, and the help's words.
std::vector<std::string> disks_with_presets() {
  std::vector<std::string> out;
  for (const models::DiskKind* k : models::disk_kinds())
    if (k->preset) out.emplace_back(k->name);
  return out;
}

std::string disk_option_help() {
  std::string s;
  const std::vector<std::string> names = disks_with_presets();
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i] + " (" +
         models::find_disk_kind(names[i])->preset_words + ")";
  return s + ": picks the hardware preset (default " + kDefaultPreset + ")";
}

std::vector<std::string> aio_mode_names() {
  std::vector<std::string> out;
  for (const models::AioMode* m : models::aio_modes()) out.emplace_back(m->name);
  return out;
}

}  // namespace

std::string starter_head(const NewArgs& a) {
  std::string s;
  s += line("name = " + toml_string(std::filesystem::path(a.file).stem().string()));
  s += line("duration = " + toml_string(a.duration), "simulated seconds measured, after the warm-up");
  s += line("warmup = \"settled\"", "serve the load until the caches settle, then measure");
  s += "\n# The machine: a hardware preset from scenarios/hardware/ (`@hardware/NAME`).\n";
  s += line("include = " + toml_string(include_of(a)));
  if (!a.page_cache.empty()) {
    std::uint64_t bytes = 0;
    if (!models::parse_size(a.page_cache, bytes))
      throw std::invalid_argument("--page-cache: a size like 48g (got '" + a.page_cache + "')");
    s += "\n[memory]\n";
    s += line(fmt::format("page_cache = \"{}\"", a.page_cache), "memory for cached files (free -b: buff/cache)");
  }
  return s;
}

std::string starter_tail(const NewArgs& a, const std::string& dataset_lines) {
  std::string s;
  s += "\n" + line("[dataset]", "the files served");
  s += dataset_lines;
  s += line(fmt::format("files = {}", a.files));
  s += line(file_sizes_line(a.file_sizes));
  s += "\n" + line("[clients.load]", "one wrk command");
  s += line(fmt::format("threads = {}", a.client_threads), "wrk -t");
  s += line(fmt::format("connections = {}", a.connections), "wrk -c: keep-alive connections");
  s += line("path = \"random\"", "a file per request, by popularity");
  s += popularity_lines(a.popularity);
  if (a.rate > 0) s += line(fmt::format("rate = {:g}", a.rate), "wrk2 -R: requests a second, open loop");
  return s;
}

std::string starter_scenario(const NewArgs& a) {
  std::string s;
  s += "# A starter scenario written by `clerk new`. Every key is in docs/scenario-keys.md\n";
  s += "# (`clerk keys TABLE` prints one table); change any of them, or try one with\n";
  s += "# `clerk run THIS_FILE --set nginx.aio=off`.\n";
  s += starter_head(a);
  s += "\n" + line("[nginx]", "nginx.conf's directives");
  s += nginx_defaults(a.nginx);
  s += line(fmt::format("worker_processes = {}", a.workers));
  s += line("sendfile = \"on\"");
  s += line(fmt::format("aio = \"{}\"", aio_of(a)), "threads: reads that miss the page cache go to the pool");
  s += "\n" + line("[nginx.thread_pool]", "thread_pool default threads=N max_queue=65536");
  s += line(fmt::format("threads = {}", a.pool_threads));
  s += starter_tail(a, "");
  return s;
}

namespace {

// The loader reads `text` before anything is put at `path`: from a private
// folder (the scenario's include is absolute or "@hardware/...", so where it
// is read changes nothing), its messages named after `path`. "" when it loads
// and fits this machine's memory at its own duration, as clerk run checks
// (a starter of 16 million connections would need 256 GiB: the sixth probe).
std::string refusal(const std::string& path, const std::string& text, const WriteMode& mode) {
  const common::HeldTempDir dir(common::temp_prefix("clerk-" + mode.command + "-"));  // no folder left by a Ctrl-C
  const std::string tmp = dir.file("scenario.toml");
  std::ofstream out(tmp, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("clerk " + mode.command + ": cannot write '" + tmp + "'");
  try {
    // As clerk run checks it: a run too large for this machine is refused (run_command.cpp).
    const models::Scenario sc = models::load_scenario(tmp);
    models::check_fits_machine(sc, sc.duration_s, tmp);
  } catch (const models::ConfigError& e) {
    std::string message = e.what();
    const std::string shown = common::shown_text(path);  // the message shows what it names escaped
    for (std::size_t at; (at = message.find(tmp)) != std::string::npos; ) message.replace(at, tmp.size(), shown);
    return message;
  }
  return "";
}

}  // namespace

int write_scenario(const std::string& path, const std::string& text, const WriteMode& mode) {
  namespace fs = std::filesystem;
  const std::string who = "clerk " + mode.command;
  std::error_code ec;
  if (!mode.replace) {
    const fs::file_type type = fs::symlink_status(path, ec).type();
    if (ec && type != fs::file_type::not_found) {  // a name too long, a folder not searchable: not "exists"
      std::cerr << who << ": '" << common::shown_text(path) << "': " << ec.message() << "\n";
      return 2;
    }
    if (type != fs::file_type::not_found) {
      std::cerr << who << ": '" << common::shown_text(path) << "' exists; " << who << " never replaces a file\n";
      return 2;
    }
  }
  try {
    if (mode.replace) common::check_output_path(path);  // the writer's rules, before the loader runs
    if (const std::string why = refusal(path, text, mode); !why.empty()) {
      std::cerr << who << ": " << mode.refused << ": " << why << "\n";
      return 2;
    }
    if (mode.replace)
      common::write_file_atomically(path, text);
    else
      common::write_new_file(path, text);  // link(2)'d: never replaces a file
  } catch (const common::OutputExists&) {
    std::cerr << who << ": '" << common::shown_text(path) << "' exists; " << who << " never replaces a file\n";
    return 2;
  } catch (const common::OutputError& e) {
    std::cerr << who << ": " << e.what() << "\n";
    return 2;
  }
  return 0;
}

int new_command(const NewArgs& args) {
  std::string text;
  try {
    text = starter_scenario(args);
  } catch (const std::invalid_argument& e) {
    // The messages quote the option's value as given: shown escaped (probe 7).
    std::cerr << "clerk new: " << common::shown_text(e.what()) << "\n";
    return 2;
  }
  const int status = write_scenario(args.file, text, WriteMode{"new", false, "the options make a scenario clerk run would refuse"});
  if (status == 0) std::cout << "wrote " << common::shown_text(args.file) << "; run it with: clerk run " << common::shown_text(args.file) << "\n";
  return status;
}

void add_new_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<NewArgs>();
  CLI::App* cmd = clerk.add_subcommand("new", "Write a starter scenario (commented) that clerk run accepts unchanged");
  NewArgs& a = *args;
  cmd->add_option("file", a.file, "the scenario file to create (never replaced)")->required();
  cmd->add_option("--disk", a.disk, disk_option_help())->check(CLI::IsMember(disks_with_presets()));
  cmd->add_option("--hardware", a.hardware, "a preset of scenarios/hardware/ by name, in place of --disk's");
  cmd->add_option("--nginx", a.nginx, "the NGINX release whose defaults to write out, like 1.24.0 (default: the current stable release)");
  cmd->add_option("--workers", a.workers, "worker_processes")->check(common::whole_range(1, 1024));
  cmd->add_option("--aio", a.aio, "an aio mode (default: the first with a thread pool)")
      ->check(CLI::IsMember(aio_mode_names()));
  cmd->add_option("--pool-threads", a.pool_threads, "thread_pool threads")->check(common::whole_range(1, 65536));
  cmd->add_option("--page-cache", a.page_cache, "memory for cached files, like 48g (default: the preset's)");
  cmd->add_option("--files", a.files, "number of files")->check(common::whole_range(1, 1 << 30));
  cmd->add_option("--file-sizes", a.file_sizes, "SIZE, MIN-MAX, or MIN-MAX:SHARE,... (default 20k-200k)");
  cmd->add_option("--popularity", a.popularity, "uniform, zipf:EXPONENT or hot:FILES:SHARE like hot:0.02:0.9");
  cmd->add_option("--connections", a.connections, "keep-alive connections (wrk -c)")->check(common::whole_range(1, 1 << 24));
  cmd->add_option("--client-threads", a.client_threads, "wrk threads (wrk -t)")->check(common::whole_range(1, 1 << 16));
  cmd->add_option("--rate", a.rate, "requests a second, open loop (wrk2 -R); 0: closed loop")->check(common::finite_range(0.0, 1e9));
  cmd->add_option("--duration", a.duration, "simulated seconds measured, like 10s");
  commands.add(cmd, [args] { return new_command(*args); });
}

}  // namespace cli
