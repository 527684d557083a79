// Which thread pool a request's reads go to (aio threads=NAME), the same on
// both engines. NGINX names a pool in `aio threads=NAME`; the name may hold
// variables (ngx_http_core_module.c's ngx_http_core_set_aio: a complex value,
// looked up per request by ngx_thread_pool_get / ngx_http_copy_aio_thread_handler),
// so `aio threads=pool_$disk` with `split_clients $request_uri $disk` sends
// each URI's reads to the pool of the disk split_clients chose for it
// (the 9x article's caching proxy). Without a name, `aio threads` uses the
// pool "default"; a single [nginx.thread_pool] table is that pool whatever
// its name (scenarios before named pools).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/os/filesystem.h"
#include "models/server/nginx_config.h"

namespace models {

// `text` (a pool's or zone's name) with split_clients' variable replaced by `value`.
std::string split_template(const NginxConfig& n, const std::string& text, const std::string& value);
// Every pool declared: thread_pool, then more_thread_pools.
std::vector<ThreadPoolConfig> all_thread_pools(const NginxConfig& n);
// The pool `aio threads=NAME` names for split_clients' value `value` (the
// variable replaced by it); the template itself when it holds no variable.
std::string aio_pool_name(const NginxConfig& n, const std::string& value);
// The index in all_thread_pools() of the pool named `name`; -1 if none.
std::int64_t pool_index(const NginxConfig& n, const std::string& name);
// The split_clients value of a request for `uri` ($request_uri), or "" when
// no part matches (or there is no split_clients).
std::string split_value(const NginxConfig& n, const std::string& uri);
// Per file of `files`, the index of its pool in all_thread_pools(); every
// file's pool is 0 when the name holds no variable. Throws
// std::invalid_argument naming the pool when one is not declared (the
// loader refuses such a configuration first).
std::vector<std::uint32_t> pools_of_files(const NginxConfig& n, const Filesystem& files);

}  // namespace models
