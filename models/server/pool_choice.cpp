#include "models/server/pool_choice.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace models {

std::vector<ThreadPoolConfig> all_thread_pools(const NginxConfig& n) {
  std::vector<ThreadPoolConfig> out{n.thread_pool};
  out.insert(out.end(), n.more_thread_pools.begin(), n.more_thread_pools.end());
  return out;
}

std::string aio_pool_name(const NginxConfig& n, const std::string& value) {
  return split_template(n, n.aio_threads_pool, value);
}

std::string split_template(const NginxConfig& n, const std::string& text, const std::string& value) {
  std::string name = text;
  const std::string& var = n.split_clients.variable;
  if (var.empty()) return name;
  // "$disk" or "${disk}" (ngx_http_script: a name ends at a character that
  // is not a letter, digit or underscore).
  const std::string braced = "${" + var.substr(1) + "}";
  for (const std::string& form : {braced, var}) {
    std::size_t at = 0;
    while ((at = name.find(form, at)) != std::string::npos) {
      const std::size_t end = at + form.size();
      const bool whole = form == braced || end == name.size() ||
                         !(std::isalnum(static_cast<unsigned char>(name[end])) || name[end] == '_');
      if (!whole) {
        ++at;
        continue;
      }
      name.replace(at, form.size(), value);
      at += value.size();
    }
  }
  return name;
}

std::int64_t pool_index(const NginxConfig& n, const std::string& name) {
  if (n.more_thread_pools.empty() && n.aio_threads_pool.empty()) return 0;  // the one pool
  const std::vector<ThreadPoolConfig> pools = all_thread_pools(n);
  for (std::size_t i = 0; i < pools.size(); ++i)
    if (pools[i].name == name) return static_cast<std::int64_t>(i);
  return -1;
}

std::string split_value(const NginxConfig& n, const std::string& uri) {
  if (!n.split_clients.enabled()) return "";
  const SplitClients split(n.split_clients.parts);
  const std::size_t part = split.part_of(uri);
  return part < n.split_clients.parts.size() ? n.split_clients.parts[part].value : "";
}

std::vector<std::uint32_t> pools_of_files(const NginxConfig& n, const Filesystem& files) {
  std::vector<std::uint32_t> out(files.files(), 0);
  if (n.aio_threads_pool.empty() && n.more_thread_pools.empty()) return out;
  const bool per_request = n.split_clients.enabled() && aio_pool_name(n, "\x01") != n.aio_threads_pool;
  const std::string fixed = n.aio_threads_pool.empty() ? "default" : n.aio_threads_pool;
  if (!per_request) {
    const std::int64_t i = pool_index(n, fixed);
    if (i < 0) throw std::invalid_argument("thread pool \"" + fixed + "\" not found");
    std::fill(out.begin(), out.end(), static_cast<std::uint32_t>(i));
    return out;
  }
  const SplitClients split(n.split_clients.parts);
  // One lookup per part (the values), then one hash per file.
  std::vector<std::int64_t> of_part;
  for (std::size_t p = 0; p <= n.split_clients.parts.size(); ++p) {
    const std::string value = p < n.split_clients.parts.size() ? n.split_clients.parts[p].value : "";
    of_part.push_back(pool_index(n, aio_pool_name(n, value)));
  }
  for (std::uint32_t f = 0; f < files.files(); ++f) {
    const std::size_t p = split.part_of(files.path(f));
    if (of_part[p] < 0) throw std::invalid_argument("thread pool \"" + aio_pool_name(n, p < n.split_clients.parts.size() ? n.split_clients.parts[p].value : "") + "\" not found");
    out[f] = static_cast<std::uint32_t>(of_part[p]);
  }
  return out;
}

}  // namespace models
