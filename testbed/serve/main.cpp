// clerk-serve: a static-file HTTP/1.1 server shaped like NGINX (a master,
// worker processes each running one event loop, sendfile, aio threads), so
// that clerk's model of event-loop blocking can be checked against a real
// server whose every knob is known. This file: the command line.
#include <CLI/CLI.hpp>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "common/finite_range.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "listener.h"
#include "master.h"
#include "options.h"

using clerk::serve::ServeOptions;

namespace {

// A bad command line is one line on stderr naming the option, exit 2, as
// clerk's own programs say it (CLI11's text was two lines, the value in
// it unescaped, and an unknown option was hidden behind "--root is
// required" when --root was missing too: the unknown one is said first).
int command_line_error(const CLI::App& app, const CLI::ParseError& e) {
  std::string what = e.what();
  if (dynamic_cast<const CLI::RequiredError*>(&e) && !app.remaining().empty())
    what = CLI::ExtrasError(app.remaining()).what();
  std::fprintf(stderr, "clerk-serve: %s (clerk-serve --help lists the options)\n", common::shown_text(what).c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  ServeOptions options;
  std::string listen = "127.0.0.1:8080";
  std::string reuseport = "off", aio = "off", aio_open = "off", cache_errors = "off";
  auto& cache = options.open_file_cache;

  CLI::App app{"clerk-serve: a static-file HTTP/1.1 server shaped like NGINX (master + worker event loops)"};
  app.add_option("--root", options.root, "directory to serve [nginx: root]")->required()->check(CLI::ExistingDirectory);
  app.add_option("--listen", listen, "ADDR:PORT ([v6]:PORT); port 0 picks a free one [nginx: listen]")
      ->capture_default_str();
  app.add_option("--workers", options.workers, "worker processes [nginx: worker_processes]")
      ->capture_default_str()
      ->check(common::whole_range(1, 1024));
  app.add_option("--reuseport", reuseport, "one SO_REUSEPORT socket per worker [nginx: listen ... reuseport]")
      ->capture_default_str()
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--sendfile-max-chunk", options.sendfile_max_chunk,
                 "largest sendfile() per loop turn, 0 = unlimited [nginx: sendfile_max_chunk]")
      ->capture_default_str()
      ->check(common::whole_range(std::size_t{0}, std::size_t{1} << 40));  // the scenario loader's limit (limits::kMaxFileBytes)
  app.add_option("--aio", aio,
                 "threads: sendfile() runs in the worker's thread pool [nginx: aio]; nowait: first a "
                 "preadv2(RWF_NOWAIT) probe, and only chunks not all in the page cache go to the pool (never in "
                 "nginx); io_uring: a ring per worker reads the chunks (never in nginx)")
      ->capture_default_str()
      ->check(CLI::IsMember({"off", "threads", "nowait", "io_uring"}));
  app.add_option("--uring-entries", options.uring_entries, "--aio io_uring: the ring's SQ entries (io_uring_setup)")
      ->capture_default_str()
      ->check(common::whole_range(1u, 32768u));
  app.add_option("--uring-max-workers", options.uring_max_workers,
                 "--aio io_uring: io-wq's bounded workers (IORING_REGISTER_IOWQ_MAX_WORKERS), 0 = the kernel's")
      ->capture_default_str()
      ->check(common::whole_range(0u, 65536u));
  app.add_option("--aio-open", aio_open, "open()+fstat() in the thread pool too [Cloudflare's nginx aio_open patch]")
      ->capture_default_str()
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--open-file-cache", cache.max,
                 "descriptors cached per worker, 0 = off; a hit needs no path walk, open() or fstat() "
                 "[nginx: open_file_cache max=]")
      ->capture_default_str()
      ->check(common::whole_range(std::size_t{0}, std::size_t{100000000}));  // the scenario loader's limit on max=
  app.add_option("--open-file-cache-inactive", cache.inactive_s,
                 "seconds an unused entry is kept [nginx: open_file_cache inactive=]")
      ->capture_default_str()
      ->check(common::whole_range(std::int64_t{0}, std::int64_t{1} << 31));
  app.add_option("--open-file-cache-valid", cache.valid_s,
                 "seconds before an entry is checked again with a walk [nginx: open_file_cache_valid]")
      ->capture_default_str()
      ->check(common::whole_range(std::int64_t{0}, std::int64_t{1} << 31));
  app.add_option("--open-file-cache-min-uses", cache.min_uses,
                 "uses (within inactive) for a descriptor to stay open [nginx: open_file_cache_min_uses]")
      ->capture_default_str()
      ->check(common::whole_range(std::uint64_t{0}, std::uint64_t{1} << 32));
  app.add_option("--open-file-cache-errors", cache_errors,
                 "cache 404 and 403 lookups too [nginx: open_file_cache_errors]")
      ->capture_default_str()
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--threads", options.threads, "threads per worker's pool [nginx: thread_pool default threads=]")
      ->capture_default_str()
      ->check(common::whole_range(1, 4096));
  app.add_option("--max-queue", options.max_queue,
                 "tasks allowed to wait in the pool, counted as nginx does: queued less idle threads, so a task an "
                 "idle thread can take is never refused, even with 0; a refused sendfile sends the head and closes, a "
                 "refused --aio-open open answers 503 [nginx: thread_pool default max_queue=]")
      ->capture_default_str()
      ->check(common::whole_range(std::size_t{0}, std::size_t{1} << 30));  // the scenario loader's limit on max_queue
  app.add_option("--keepalive-requests", options.keepalive_requests,
                 "requests per connection, then Connection: close [nginx: keepalive_requests]")
      ->capture_default_str()
      ->check(common::whole_range(0, INT_MAX));
  app.add_option("--keepalive-timeout", options.keepalive_timeout_s,
                 "seconds an idle keep-alive connection is kept, 0 = no keep-alive [nginx: keepalive_timeout]")
      ->capture_default_str()
      ->check(common::whole_range(0, 86400));
  app.add_option("--worker-connections", options.worker_connections,
                 "connections a worker keeps open at once, its listening socket and its channel to the master "
                 "counted as in nginx (2 of them); short of slots, the connections idle the longest are closed to make "
                 "room, and with none idle a new client beyond is closed at once [nginx: worker_connections]")
      ->capture_default_str()
      ->check(common::whole_range(std::size_t{3}, std::size_t{UINT32_MAX}));
  app.add_option("--header-limit", options.header_limit,
                 "bytes of request line + headers; beyond: 431 and close [nginx: large_client_header_buffers]")
      ->capture_default_str()
      ->check(common::whole_range(std::size_t{64}, std::size_t{1} << 20));
  app.add_option("--client-header-timeout", options.client_header_timeout_s,
                 "seconds to receive a request head [nginx: client_header_timeout]")
      ->capture_default_str()
      ->check(common::whole_range(1, 86400));
  app.add_option("--send-timeout", options.send_timeout_s,
                 "seconds a client may leave the socket unwritable [nginx: send_timeout]")
      ->capture_default_str()
      ->check(common::whole_range(1, 86400));
  app.add_option("--pid-file", options.pid_file, "write the master's pid here [nginx: pid]");
  app.add_option("--port-file", options.port_file, "write the bound port here (for --listen ADDR:0)");

  try {
    app.parse(argc, argv);
    if (!clerk::serve::parse_listen_address(listen, options.listen_host, options.listen_port))
      throw CLI::ValidationError("--listen", "expected ADDR:PORT, e.g. 127.0.0.1:8080 or [::1]:8080: " + listen);
    options.reuseport = reuseport == "on";
    options.aio_threads = aio == "threads" || aio == "nowait";
    options.aio_nowait = aio == "nowait";
    options.aio_uring = aio == "io_uring";
    options.aio_open = aio_open == "on";
    cache.errors = cache_errors == "on";
    if (options.aio_open && !options.aio_threads)
      throw CLI::ValidationError("--aio-open", "on needs --aio threads (the open runs in its thread pool)");
    // One file for both: one number would overwrite the other, and the
    // first removal at exit would take both (probe 6), as clerk refuses
    // two outputs that are one file.
    if (!options.pid_file.empty() && !options.port_file.empty() &&
        common::same_output_file(options.pid_file, options.port_file))
      throw CLI::ValidationError("--port-file", "'" + options.port_file + "' is the same file as --pid-file '" +
                                                    options.pid_file + "': give each its own name");
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    return command_line_error(app, e);
  }
  // Exit statuses: 0 done, 1 the server could not run (port, root, a worker
  // failing fatally), 2 bad command line, 3 an internal error.
  try {
    return clerk::serve::run_master(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clerk-serve: internal error: %s\nPlease report this as a bug.\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "clerk-serve: internal error (unknown exception)\nPlease report this as a bug.\n");
  }
  return 3;
}
