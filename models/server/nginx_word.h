// The scenario text clerk writes unquoted into an nginx.conf it generates
// (clerk realrun, testbed/realrun/nginx_conf.cpp): a thread pool's name
// (`thread_pool NAME`), `aio threads=NAME`, split_clients' values.
//
// NGINX's configuration reader (ngx_conf_read_token in ngx_conf_file.c)
// ends a word at whitespace, ';', '{' or '}', starts a comment at '#' and
// reads quotes and '\' as quoting, so a name holding any of them (or a
// newline) would add directives of its own to the file, one of which runs
// as root. clerk takes only words every NGINX build reads as one plain
// word: letters, digits, '_', '-' and '.', and '$' where a variable may
// appear (aio threads=pool_$disk, ngx_http_core_module's complex value).
#pragma once
#include <string_view>

namespace models {

// True when `word` is one plain NGINX word, non-empty and made only of the
// characters above ('$' only when `variables`).
inline bool is_nginx_word(std::string_view word, bool variables = false) {
  if (word.empty()) return false;
  for (const char ch : word) {
    const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                       ch == '-' || ch == '.';
    if (!plain && !(variables && ch == '$')) return false;
  }
  return true;
}

// What the loader's error says such a word may hold.
inline constexpr const char* kNginxWordRule =
    "letters, digits, '_', '-' and '.' only (it is written into the nginx.conf clerk realrun generates)";

}  // namespace models
