// `clerk new FILE`: writes a starter scenario, every line commented, that
// `clerk run` accepts unchanged: a hardware preset ("@hardware/..."), NGINX
// with the defaults of the version asked for written out (from the release
// table the loader reads, models/server/nginx_versions.h), a data set and one client group, each from the options.
// The text is loaded with the loader before it is put in place; an existing
// FILE is never replaced (link(2) of a finished temporary: the name appears
// whole or not at all).
#pragma once
#include <cstdint>
#include <string>

#include "models/server/nginx_versions.h"

namespace cli {

struct NewArgs {
  std::string file;
  std::string hardware;             // a preset name; empty: from `disk`
  std::string disk;                 // a disk kind with a preset (disk_kinds.h); empty: kDefaultPreset
  std::string nginx = models::kNginxCurrentStable;  // whose defaults to write out
  std::uint32_t workers = 4;
  std::string aio;                  // an aio mode (aio_modes.h); empty: the first with a thread pool
  std::uint32_t pool_threads = 32;
  std::string page_cache;           // empty: the preset's
  std::uint32_t files = 10000;
  std::string file_sizes = "20k-200k";  // SIZE, MIN-MAX, or classes MIN-MAX:SHARE,...
  std::string popularity = "uniform";   // uniform | zipf:S | hot:FILES:SHARE
  std::uint32_t connections = 100;
  std::uint32_t client_threads = 2;
  double rate = 0;                  // requests/s; 0: wrk's closed loop
  std::string duration = "10s";
};

// The scenario's text (for tests); throws std::invalid_argument on options
// it cannot express, naming the option.
std::string starter_scenario(const NewArgs& args);

// Its parts, for front ends that write their own [nginx] (clerk import):
// the top-level keys and the hardware preset; [dataset] (after `dataset_lines`) and the client group.
std::string starter_head(const NewArgs& args);
std::string starter_tail(const NewArgs& args, const std::string& dataset_lines);

// How write_scenario puts a file in place: the command named in messages,
// whether an existing file is replaced (rename(2)) or refused (link(2)), and
// what a text the loader refuses is called.
struct WriteMode {
  std::string command;
  bool replace = false;
  std::string refused;
};

// Writes `text` to a temporary beside `path`, has the loader read it, then
// puts it at `path`: never half written. Returns 2 with a message for bad
// input, 0 on success.
int write_scenario(const std::string& path, const std::string& text, const WriteMode& mode);

// Writes the scenario; the exit status (cli/commands.h).
int new_command(const NewArgs& args);

}  // namespace cli
