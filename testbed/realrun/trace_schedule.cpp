#include "testbed/realrun/trace_schedule.h"

#include <fmt/format.h>

#include <fstream>

#include "models/clients/network_path.h"
#include "models/clients/trace.h"
#include "sim/random.h"
#include "testbed/realrun/data_set.h"
#include "testbed/realrun/real_run.h"

namespace testbed::realrun {

std::uint64_t write_trace_schedule(const models::Scenario& planned, std::size_t group, double duration_s,
                                   const std::string& path) {
  const models::WrkGroupSpec& g = planned.clients.at(group);
  if (!g.trace.files) throw RealRunError("clients." + g.name + ".trace: the data set was not planned from the log");
  std::string error;
  const auto format = models::LogFormat::compile(g.trace.log_format, error);
  if (!format) throw RealRunError("clients." + g.name + ".log_format " + error);
  // As the simulated group draws them (wrk.cpp: start_trace): the group's own sample stream.
  models::TraceReader reader(g.trace, *format,
                             sim::RandomStreams(planned.seed)
                                 .stream(models::kTraceSampleStreams, models::group_stream_index(g.name)));
  const std::vector<std::uint32_t> tree =
      planned.filesystem.tree.empty() ? std::vector<std::uint32_t>{planned.filesystem.files} : planned.filesystem.tree;
  std::ofstream out(path, std::ios::binary);
  std::uint64_t lines = 0;
  models::TraceLine line;
  while (reader.next(line) && line.at_s < duration_s) {
    const auto it = g.trace.files->find(line.path);
    if (it == g.trace.files->end())
      throw RealRunError("the access log '" + g.trace.file + "' changed since its data set was planned");
    out << fmt::format("{:.6f} {}\n", line.at_s, file_path(tree, it->second));
    ++lines;
  }
  out.flush();
  if (!out) throw RealRunError("cannot write " + path);
  return lines;
}

}  // namespace testbed::realrun
