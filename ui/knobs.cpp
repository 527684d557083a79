#include "ui/knobs.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "models/scenario/disk_kinds.h"
#include "models/scenario/limits.h"

namespace ui {

namespace {
// A combo over one of the model's registries (disk_kinds.h, aio_modes.h,
// accept_policies.h); entries `allowed` refuses are shown greyed.
template <typename Row, typename Allowed>
bool choose(const char* label, int& index, const std::vector<const Row*>& rows, Allowed allowed) {
  const std::size_t n = rows.size();
  if (index < 0 || static_cast<std::size_t>(index) >= n) index = 0;
  bool changed = false;
  // The closed combo shows the short name (a narrow panel cut the long one
  // off: "no disk (every fi"); the list and the hover show the whole.
  const Row& current = *rows[static_cast<std::size_t>(index)];
  const bool open = ImGui::BeginCombo(label, current.brief);
  if (!open && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", current.label);
  if (open) {
    for (std::size_t i = 0; i < n; ++i) {
      const bool ok = allowed(*rows[i]);
      if (ImGui::Selectable(rows[i]->label, static_cast<std::size_t>(index) == i, ok ? 0 : ImGuiSelectableFlags_Disabled)) {
        changed = static_cast<std::size_t>(index) != i;
        index = static_cast<int>(i);
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

template <typename Row>
const Row& row_at(const std::vector<const Row*>& rows, int index) {
  return *rows.at(static_cast<std::size_t>(index));
}

std::size_t disk_index(const models::DiskKind& kind) {
  const auto& rows = models::disk_kinds();
  return static_cast<std::size_t>(std::find(rows.begin(), rows.end(), &kind) - rows.begin());
}

// Only disks whose figures the scenario gives: the kinds built of the same
// drive share its datasheet; an SSD, a simple disk or no disk has figures
// (or a data set) of its own that no other kind provides.
bool disk_allowed(const models::DiskKind& kind, const models::DiskSpec& loaded) {
  const models::DiskKind& own = models::disk_kind(loaded);
  return &kind == &own || (own.drive && own.drive(loaded) && kind.of_drive);
}

models::DiskSpec disk_of(const models::DiskKind& kind, const models::DiskSpec& loaded) {
  if (&kind == &models::disk_kind(loaded) || !disk_allowed(kind, loaded)) return loaded;
  return kind.of_drive(*models::disk_kind(loaded).drive(loaded));
}
}  // namespace

Knobs knobs_of(const models::Scenario& sc, std::uint64_t seed) {
  Knobs k;
  k.workers = static_cast<int>(sc.nginx.worker_processes);
  k.aio = static_cast<int>(models::aio_mode_index(sc.nginx.aio));
  k.pool_threads = static_cast<int>(sc.nginx.thread_pool.threads);
  k.max_queue = static_cast<int>(sc.nginx.thread_pool.max_queue);
  k.chunk_kib = static_cast<int>(sc.nginx.sendfile_max_chunk / 1024);
  k.accept = static_cast<int>(models::accept_policy_index(sc.nginx.accept));
  k.disk = static_cast<int>(disk_index(models::disk_kind(sc.hardware.disk)));
  k.cache_gib = static_cast<float>(static_cast<double>(sc.hardware.page_cache_bytes) / (1ULL << 30));
  for (const auto& g : sc.clients) k.connections.push_back(static_cast<int>(g.connections));
  k.duration_s = static_cast<float>(sc.duration_s);
  k.seed = seed;
  return k;
}

models::Scenario apply(models::Scenario sc, const Knobs& k) {
  sc.nginx.worker_processes = static_cast<std::uint32_t>(k.workers);
  sc.nginx.aio = &row_at(models::aio_modes(), k.aio);
  sc.nginx.thread_pool.threads = static_cast<std::uint32_t>(k.pool_threads);
  sc.nginx.thread_pool.max_queue = static_cast<std::uint32_t>(k.max_queue);
  sc.nginx.sendfile_max_chunk = static_cast<std::uint64_t>(k.chunk_kib) * 1024;
  sc.nginx.accept = &row_at(models::accept_policies(), k.accept);
  sc.hardware.disk = disk_of(row_at(models::disk_kinds(), k.disk), sc.hardware.disk);
  const auto unit = sc.hardware.cache_unit_bytes;
  const auto bytes = static_cast<std::uint64_t>(static_cast<double>(k.cache_gib) * (1ULL << 30));
  sc.hardware.page_cache_bytes = std::max(unit, bytes / unit * unit);
  for (std::size_t g = 0; g < sc.clients.size() && g < k.connections.size(); ++g)
    sc.clients[g].connections = std::max(sc.clients[g].threads, static_cast<std::uint32_t>(k.connections[g]));
  sc.duration_s = k.duration_s;
  return sc;
}

std::string describe(const models::Scenario& sc) {
  const std::uint32_t n = sc.nginx.worker_processes;
  std::string s = std::to_string(n) + (n == 1 ? " worker, " : " workers, ");
  s += sc.nginx.aio->brief;
  if (sc.nginx.aio->thread_pool) s += " x" + std::to_string(sc.nginx.thread_pool.threads);
  if (sc.nginx.sendfile_max_chunk) s += ", chunk " + std::to_string(sc.nginx.sendfile_max_chunk / 1024) + "k";
  s += std::string(", ") + models::disk_kind(sc.hardware.disk).brief;
  std::uint32_t conns = 0;
  for (const auto& g : sc.clients) conns += g.connections;
  return s + ", " + std::to_string(conns) + " conns";
}

std::string differences(const Knobs& m, const Knobs& o, const models::Scenario& sc) {
  std::vector<std::string> d;
  const bool pools = row_at(models::aio_modes(), m.aio).thread_pool && row_at(models::aio_modes(), o.aio).thread_pool;
  if (m.aio != o.aio) d.emplace_back(row_at(models::aio_modes(), m.aio).brief);
  if (pools && m.pool_threads != o.pool_threads) d.push_back("threads=" + std::to_string(m.pool_threads));
  if (pools && m.max_queue != o.max_queue) d.push_back("max_queue=" + std::to_string(m.max_queue));
  if (m.workers != o.workers) d.push_back(std::to_string(m.workers) + " workers");
  if (m.chunk_kib != o.chunk_kib) d.push_back(m.chunk_kib ? "chunk " + std::to_string(m.chunk_kib) + "k" : "no chunk");
  if (m.accept != o.accept) d.emplace_back(row_at(models::accept_policies(), m.accept).brief);
  if (m.disk != o.disk) d.emplace_back(row_at(models::disk_kinds(), m.disk).brief);
  if (m.cache_gib != o.cache_gib) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "cache %.3g GiB", static_cast<double>(m.cache_gib));
    d.emplace_back(buf);
  }
  for (std::size_t g = 0; g < m.connections.size() && g < o.connections.size() && g < sc.clients.size(); ++g)
    if (m.connections[g] != o.connections[g]) d.push_back(sc.clients[g].name + " " + std::to_string(m.connections[g]) + " conns");
  if (m.duration_s != o.duration_s) d.push_back(std::to_string(static_cast<int>(m.duration_s)) + " s");
  if (d.empty()) return "same settings";
  std::string out;
  for (const std::string& x : d) out += (out.empty() ? "" : ", ") + x;
  return out;
}

bool edit_knobs(Knobs& k, const models::Scenario& sc) {
  using L = KnobLimits;
  bool changed = false;
  changed |= ImGui::SliderInt("worker_processes", &k.workers, L::kWorkers[0], L::kWorkers[1]);
  changed |= choose("aio", k.aio, models::aio_modes(), [](const models::AioMode&) { return true; });
  if (row_at(models::aio_modes(), k.aio).thread_pool) {
    changed |= ImGui::SliderInt("pool threads", &k.pool_threads, L::kPoolThreads[0], L::kPoolThreads[1]);
    changed |= ImGui::SliderInt("pool max_queue", &k.max_queue, L::kMaxQueue[0], L::kMaxQueue[1], "%d", ImGuiSliderFlags_Logarithmic);
  }
  const auto& chunks = L::kChunksKib;
  static const char* chunk_names[] = {"off (no limit)", "128k", "256k", "512k", "1m", "2m"};
  static_assert(std::size(chunk_names) == std::size(L::kChunksKib));
  int ci = static_cast<int>(std::find(std::begin(chunks), std::end(chunks), k.chunk_kib) - std::begin(chunks));
  if (ci >= 6) ci = 0;
  if (ImGui::Combo("sendfile_max_chunk", &ci, chunk_names, 6)) {
    k.chunk_kib = chunks[ci];
    changed = true;
  }
  changed |= choose("accept", k.accept, models::accept_policies(), [](const models::AcceptPolicy&) { return true; });
  changed |= choose("disk", k.disk, models::disk_kinds(),
                    [&](const models::DiskKind& kind) { return disk_allowed(kind, sc.hardware.disk); });
  changed |= ImGui::SliderFloat("page cache GiB", &k.cache_gib, L::kCacheGib[0], L::kCacheGib[1], "%.2f", ImGuiSliderFlags_Logarithmic);
  for (std::size_t g = 0; g < k.connections.size() && g < sc.clients.size(); ++g) {
    const std::string label = "conns " + sc.clients[g].name;
    changed |= ImGui::SliderInt(label.c_str(), &k.connections[g], static_cast<int>(sc.clients[g].threads), L::kMaxConnections, "%d",
                                ImGuiSliderFlags_Logarithmic);
  }
  changed |= ImGui::SliderFloat("duration s", &k.duration_s, L::kDurationS[0], L::kDurationS[1], "%.0f", ImGuiSliderFlags_Logarithmic);
  // The whole 64-bit seed (an int widget cut 4294967297 to 1), in the loader's range.
  static constexpr std::uint64_t kSeedStep = 1;
  changed |= ImGui::InputScalar("seed", ImGuiDataType_U64, &k.seed, &kSeedStep);
  k.seed = std::min(k.seed, models::limits::kMaxSeed);
  return changed;
}

}  // namespace ui
