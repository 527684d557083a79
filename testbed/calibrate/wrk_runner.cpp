#include "testbed/calibrate/wrk_runner.h"

#include <regex>
#include <stdexcept>

#include "common/number_text.h"
#include "testbed/calibrate/proc_stat.h"
#include "testbed/calibrate/tools.h"

namespace testbed::calibrate {

namespace {
// A count or a decimal from wrk's text; a runtime_error rather than
// std::stoull's out_of_range for 30 digits, or std::stod's invalid_argument for ".".
template <class T>
T wrk_number(const std::string& text) {
  if (const auto v = common::number_text<T>(text)) return *v;
  throw std::runtime_error("wrk's output has '" + text + "' for a number");
}
}  // namespace

WrkSummary parse_wrk_output(const std::string& text) {
  WrkSummary s;
  std::smatch m;
  static const std::regex done(R"((\d+) requests in ([0-9.]+)(us|ms|s|m))");
  if (!std::regex_search(text, m, done)) throw std::runtime_error("wrk's output has no request count: " + text);
  s.requests = wrk_number<std::uint64_t>(m[1]);
  const double v = wrk_number<double>(m[2]);
  const std::string unit = m[3];
  s.seconds = unit == "us" ? v * 1e-6 : unit == "ms" ? v * 1e-3 : unit == "m" ? v * 60 : v;
  static const std::regex errors(R"(Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+))");
  if (std::regex_search(text, m, errors))
    for (std::size_t i = 1; i <= 4; ++i) s.socket_errors += wrk_number<std::uint64_t>(m[i]);
  static const std::regex non2xx(R"(Non-2xx or 3xx responses: (\d+))");
  if (std::regex_search(text, m, non2xx)) s.non_2xx = wrk_number<std::uint64_t>(m[1]);
  return s;
}

WrkRun run_wrk(const std::string& url, int connections, double seconds, const std::vector<pid_t>& server_workers,
               const std::vector<std::string>& extra, int threads) {
  std::vector<std::string> argv{wrk_tool().path, "-t" + std::to_string(threads), "-c" + std::to_string(connections),
                                "-d" + std::to_string(static_cast<int>(seconds + 0.5)) + "s"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.push_back(url);
  auto server_sample = [&] {
    ThreadSample sum;
    for (pid_t w : server_workers) sum += thread_sample(w);
    return sum;
  };
  const ThreadSample before = server_sample();
  double wrk_cpu_s = 0;
  const std::string out = run_and_capture(argv, &wrk_cpu_s);
  const ThreadSample after = server_sample();
  const WrkSummary s = parse_wrk_output(out);
  // A run with errors measured something else (refused or reset connections).
  if (s.non_2xx > 0 || s.socket_errors > s.requests / 1000)
    throw std::runtime_error("wrk reported errors against " + url + ":\n" + out);
  if (s.requests == 0) throw std::runtime_error("wrk completed no request against " + url);
  WrkRun r;
  r.requests = s.requests;
  r.seconds = s.seconds;
  r.wrk_cpu_s = wrk_cpu_s;
  r.server = after - before;
  r.server_cpu_s = r.server.all_cpu_s;
  return r;
}

}  // namespace testbed::calibrate
