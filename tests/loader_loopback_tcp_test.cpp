// Loopback's TCP as a hardware profile names it ([kernel]
// tcp_congestion_control, lo_qdisc, tcp_pacing; models/os/host.h's
// KernelSpec): kernel names, read strictly, tcp_pacing only as
// models/os/tcp_pacing.h derives it from the other two, each bad value a
// ConfigError naming the file, the line and the key. The model does not use
// them; clerk realrun compares them with the running kernel's.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "models/os/tcp_pacing.h"
#include "models/scenario/config_loader.h"

namespace {

const std::string kSmall = std::string(CLERK_TEST_DATA) + "/small-hdd.toml";

struct Refusal {
  std::string file, key, message;
  int line = 0;
};

// small-hdd.toml with `lines` appended in a [kernel] table of its own, loaded
// from a temporary file; the refusal, or key "(loaded)".
Refusal refusal_of(const std::string& lines, int* first_line = nullptr) {
  std::ifstream in(kSmall);
  std::stringstream text;
  text << in.rdbuf();
  std::string toml = text.str();
  REQUIRE(toml.find("[kernel]") == std::string::npos);
  toml += "\n[kernel]\n";
  if (first_line) *first_line = static_cast<int>(std::count(toml.begin(), toml.end(), '\n')) + 1;
  toml += lines;
  char dir[] = "/tmp/clerk-loopback-tcp-test-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string file = std::string(dir) + "/s.toml";
  std::ofstream(file) << toml;
  Refusal r{file, "(loaded)", "", 0};
  try {
    models::load_scenario(file);
  } catch (const models::ConfigError& e) {
    r = {e.file(), e.key(), e.what(), e.line()};
  }
  std::filesystem::remove_all(dir);
  if (r.key != "(loaded)") CHECK(r.file == file);
  return r;
}

}  // namespace

TEST_CASE("loopback pacing: fq paces every flow, bbr elsewhere paces itself, the rest do not") {
  CHECK(models::loopback_pacing("bbr", "noqueue") == "internal");     // bbr_init(): SK_PACING_NEEDED
  CHECK(models::loopback_pacing("bbr", "pfifo_fast") == "internal");
  CHECK(models::loopback_pacing("bbr", "fq") == "fq");                // fq overrides: SK_PACING_FQ
  CHECK(models::loopback_pacing("cubic", "fq") == "fq");
  CHECK(models::loopback_pacing("cubic", "noqueue") == "none");
  CHECK(models::loopback_pacing("reno", "fq_codel") == "none");       // fq_codel is not fq
}

TEST_CASE("loader: [kernel] tcp_congestion_control, lo_qdisc and tcp_pacing load into KernelSpec") {
  const models::Scenario sc = models::load_scenario(
      kSmall, {"kernel.tcp_congestion_control=\"bbr\"", "kernel.lo_qdisc=\"noqueue\"", "kernel.tcp_pacing=\"internal\""});
  CHECK(sc.kernel.tcp_congestion_control == "bbr");
  CHECK(sc.kernel.lo_qdisc == "noqueue");
  CHECK(sc.kernel.tcp_pacing == "internal");
  const models::Scenario cubic = models::load_scenario(
      kSmall, {"kernel.tcp_congestion_control=\"dctcp-reno\"", "kernel.lo_qdisc=\"fq\"", "kernel.tcp_pacing=\"fq\""});
  CHECK(cubic.kernel.tcp_congestion_control == "dctcp-reno");
  CHECK(cubic.kernel.tcp_pacing == "fq");
  // Each alone, and none: "" (the profile does not say).
  CHECK(models::load_scenario(kSmall, {"kernel.lo_qdisc=\"pfifo_fast\""}).kernel.lo_qdisc == "pfifo_fast");
  const models::Scenario plain = models::load_scenario(kSmall);
  CHECK(plain.kernel.tcp_congestion_control.empty());
  CHECK(plain.kernel.lo_qdisc.empty());
  CHECK(plain.kernel.tcp_pacing.empty());
}

TEST_CASE("loader: the committed local profile names bbr on noqueue, paced by TCP itself") {
  const models::Scenario sc = models::load_scenario(std::string(CLERK_SCENARIOS) + "/local/threads.toml");
  CHECK(sc.kernel.tcp_congestion_control == "bbr");
  CHECK(sc.kernel.lo_qdisc == "noqueue");
  CHECK(sc.kernel.tcp_pacing == "internal");
}

TEST_CASE("loader: bad loopback TCP keys are refused at their file, line and key") {
  int line = 0;
  // Not a kernel name: upper case, a space, empty, 16 characters, not a string.
  for (const char* bad : {"\"BBR\"", "\"bb r\"", "\"\"", "\"abcdefghijklmnop\"", "1"}) {
    const Refusal r = refusal_of(std::string("tcp_congestion_control = ") + bad + "\n", &line);
    CHECK(r.key == "kernel.tcp_congestion_control");
    CHECK(r.line == line);
  }
  const Refusal q = refusal_of("lo_qdisc = \"no queue\"\n", &line);
  CHECK(q.key == "kernel.lo_qdisc");
  CHECK(q.line == line);
  CHECK(q.message.find("a name as the kernel writes it") != std::string::npos);
  // tcp_pacing: one of three, with both others beside it, as they make it.
  const Refusal choice = refusal_of("tcp_congestion_control = \"bbr\"\nlo_qdisc = \"noqueue\"\ntcp_pacing = \"yes\"\n", &line);
  CHECK(choice.key == "kernel.tcp_pacing");
  CHECK(choice.line == line + 2);
  const Refusal alone = refusal_of("tcp_pacing = \"internal\"\n", &line);
  CHECK(alone.key == "kernel.tcp_pacing");
  CHECK(alone.line == line);
  CHECK(alone.message.find("needs tcp_congestion_control and lo_qdisc") != std::string::npos);
  const Refusal wrong = refusal_of("tcp_congestion_control = \"cubic\"\nlo_qdisc = \"noqueue\"\ntcp_pacing = \"internal\"\n", &line);
  CHECK(wrong.key == "kernel.tcp_pacing");
  CHECK(wrong.line == line + 2);
  CHECK(wrong.message.find("is \"none\"") != std::string::npos);
  // The good set in a file loads.
  CHECK(refusal_of("tcp_congestion_control = \"bbr\"\nlo_qdisc = \"noqueue\"\ntcp_pacing = \"internal\"\n").key == "(loaded)");
}
