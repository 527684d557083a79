#include "ui/knobs.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace ui {

Knobs knobs_of(const models::Scenario& sc, std::uint64_t seed) {
  Knobs k;
  k.workers = static_cast<int>(sc.nginx.worker_processes);
  k.aio_threads = sc.nginx.aio == models::AioMode::kThreads;
  k.pool_threads = static_cast<int>(sc.nginx.thread_pool.threads);
  k.max_queue = static_cast<int>(sc.nginx.thread_pool.max_queue);
  k.chunk_kib = static_cast<int>(sc.nginx.sendfile_max_chunk / 1024);
  k.accept = sc.nginx.accept == models::AcceptPolicy::kMutexOff ? 0 : sc.nginx.accept == models::AcceptPolicy::kMutexOn ? 1 : 2;
  k.disk = static_cast<int>(sc.hardware.disk);
  k.cache_gib = static_cast<float>(static_cast<double>(sc.hardware.page_cache_bytes) / (1ULL << 30));
  for (const auto& g : sc.clients) k.connections.push_back(static_cast<int>(g.connections));
  k.duration_s = static_cast<float>(sc.duration_s);
  k.seed = static_cast<int>(seed);
  return k;
}

models::Scenario apply(models::Scenario sc, const Knobs& k) {
  sc.nginx.worker_processes = static_cast<std::uint32_t>(k.workers);
  sc.nginx.aio = k.aio_threads ? models::AioMode::kThreads : models::AioMode::kOff;
  sc.nginx.thread_pool.threads = static_cast<std::uint32_t>(k.pool_threads);
  sc.nginx.thread_pool.max_queue = static_cast<std::uint32_t>(k.max_queue);
  sc.nginx.sendfile_max_chunk = static_cast<std::uint64_t>(k.chunk_kib) * 1024;
  sc.nginx.accept = k.accept == 0 ? models::AcceptPolicy::kMutexOff
                    : k.accept == 1 ? models::AcceptPolicy::kMutexOn
                                    : models::AcceptPolicy::kReuseport;
  sc.hardware.disk = static_cast<models::DiskKind>(k.disk);
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
  s += sc.nginx.aio == models::AioMode::kThreads ? "aio threads x" + std::to_string(sc.nginx.thread_pool.threads) : "aio off";
  if (sc.nginx.sendfile_max_chunk) s += ", chunk " + std::to_string(sc.nginx.sendfile_max_chunk / 1024) + "k";
  static const char* disks[] = {"one drive", "RAID10", "simple disk"};
  s += std::string(", ") + disks[static_cast<int>(sc.hardware.disk)];
  std::uint32_t conns = 0;
  for (const auto& g : sc.clients) conns += g.connections;
  return s + ", " + std::to_string(conns) + " conns";
}

bool edit_knobs(Knobs& k, const models::Scenario& sc) {
  bool changed = false;
  changed |= ImGui::SliderInt("worker_processes", &k.workers, 1, 64);
  changed |= ImGui::Checkbox("aio threads", &k.aio_threads);
  if (k.aio_threads) {
    changed |= ImGui::SliderInt("pool threads", &k.pool_threads, 1, 128);
    changed |= ImGui::SliderInt("pool max_queue", &k.max_queue, 0, 65536, "%d", ImGuiSliderFlags_Logarithmic);
  }
  static const int chunks[] = {0, 128, 256, 512, 1024, 2048};
  static const char* chunk_names[] = {"off (no limit)", "128k", "256k", "512k", "1m", "2m"};
  int ci = static_cast<int>(std::find(std::begin(chunks), std::end(chunks), k.chunk_kib) - std::begin(chunks));
  if (ci >= 6) ci = 0;
  if (ImGui::Combo("sendfile_max_chunk", &ci, chunk_names, 6)) {
    k.chunk_kib = chunks[ci];
    changed = true;
  }
  static const char* accepts[] = {"accept_mutex off", "accept_mutex on", "reuseport"};
  changed |= ImGui::Combo("accept", &k.accept, accepts, 3);
  // In models::DiskKind's order.
  static const char* disks[] = {"one drive alone", "md RAID10 of the drives", "simple disk (latency + bandwidth)"};
  changed |= ImGui::Combo("disk", &k.disk, disks, 3);
  changed |= ImGui::SliderFloat("page cache GiB", &k.cache_gib, 0.25f, 64.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
  for (std::size_t g = 0; g < k.connections.size() && g < sc.clients.size(); ++g) {
    const std::string label = "conns " + sc.clients[g].name;
    changed |= ImGui::SliderInt(label.c_str(), &k.connections[g], static_cast<int>(sc.clients[g].threads), 20000, "%d",
                                ImGuiSliderFlags_Logarithmic);
  }
  changed |= ImGui::SliderFloat("duration s", &k.duration_s, 1.0f, 600.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
  changed |= ImGui::InputInt("seed", &k.seed);
  k.seed = std::max(k.seed, 0);
  return changed;
}

}  // namespace ui
