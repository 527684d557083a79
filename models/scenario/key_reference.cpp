#include "models/scenario/key_reference.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/disk_kinds.h"
#include "models/server/aio_modes.h"

namespace models {

namespace {

// The probe scenarios: together they take every branch of the loader that
// reads keys of its own (each disk type; an SSD of two figures and one of a
// measured distribution; one size and a size mix; each popularity), so that
// what they record is every key the loader reads. Each disk kind gives its
// own probes (disk_kinds.h). A branch added without a
// probe shows up as documented keys nobody read (a problem below).
const char* const kProbeCommon = R"(
name = "probe"
[cpu]
logical_cpus = 2
[memory]
page_cache = "1g"
[nic]
line_rate = "1Gbit/s"
[nginx]
sendfile = "on"
[clients.a]
connections = 4
path = "random"
popularity = "zipf"
zipf_exponent = 1.0
[clients.b]
connections = 4
path = "random"
popularity = "hot"
hot = {files = 0.1, share = 0.9}
[clients.c]
connections = 4
path = "random"
rtt = {median = "40ms", sigma = 0.5}
bandwidth = {median = "20Mbit/s", sigma = 1.0}
[clients.d]
connections = 4
trace = "access.log"
[[expect]]
metric = "server.requests"
min = 0
)";

std::vector<std::string> probe_texts() {
  const std::string one_size = "[dataset]\nfiles = 100\nfile_size = \"100k\"\n";
  const std::string mixed = "[dataset]\nfiles = 100\nfile_sizes = [[\"8k\", 0.5], [\"64k\", 0.5]]\n";
  std::vector<std::string> out;
  for (const DiskKind* kind : disk_kinds())
    for (const std::string& keys : kind->probes)
      out.push_back(kProbeCommon + one_size + "[disk]\ntype = \"" + kind->name + "\"\n" + keys);
  const DiskKind& first = *disk_kinds().front();
  out.push_back(kProbeCommon + mixed + "[disk]\ntype = \"" + first.name + "\"\n" + first.probes.front());
  // Each mode with a ring, with its [nginx.io_uring] (aio_modes.h).
  const std::string nginx = "[nginx]\nsendfile = \"on\"\n";
  for (const AioMode* m : aio_modes())
    if (m->io_uring) {
      std::string text = kProbeCommon + one_size + "[disk]\ntype = \"" + first.name + "\"\n" + first.probes.front() +
                         "[nginx.io_uring]\nentries = 64\nmax_workers = 4\n";
      text.replace(text.find(nginx), nginx.size(), nginx + "aio = \"" + m->name + "\"\n");
      out.push_back(text);
    }
  return out;
}

using Slot = std::tuple<std::string, std::string, std::string>;  // table, when, key

std::vector<KeyUse> recorded_uses() {
  std::vector<KeyUse> all;
  std::set<Slot> seen;
  const std::vector<std::string> probes = probe_texts();
  for (std::size_t i = 0; i < probes.size(); ++i) {
    std::vector<KeyUse> uses;
    load_scenario_recording(probes[i], "probe " + std::to_string(i + 1), uses);
    for (const KeyUse& u : uses)
      if (seen.insert({u.table, u.when, u.key}).second) all.push_back(u);
  }
  return all;
}

std::string where(const std::string& table, const std::string& when) {
  std::string t = table.empty() ? "the top level" : table == "expect" ? "[[expect]]" : "[" + table + "]";
  return when.empty() ? t : t + " with " + when;
}

}  // namespace

const char* key_type_name(KeyType type) {
  switch (type) {
    case KeyType::kTable: return "table";
    case KeyType::kString: return "text";
    case KeyType::kInteger: return "whole number";
    case KeyType::kNumber: return "number";
    case KeyType::kFlag: return "on/off";
    case KeyType::kSize: return "size";
    case KeyType::kDuration: return "time";
    case KeyType::kRate: return "rate";
    case KeyType::kChoice: return "choice";
    case KeyType::kValue: return "list or form";
    case KeyType::kRetired: return "retired";
  }
  return "";
}

namespace {
// Each table pattern's documented keys, in key_docs()' order without repeats,
// gathered once: key_docs() never changes, and the loader asks for the keys
// of every table of every scenario it loads (check_known_keys), which
// scanned all of key_docs() with a string compare per entry each time (a
// tenth of fuzz_import's time, a twentieth of fuzz_sweep's and fuzz_lesson's).
const std::map<std::string, std::vector<std::string>>& keys_by_table() {
  static const std::map<std::string, std::vector<std::string>> index = [] {
    std::map<std::string, std::vector<std::string>> m;
    for (const KeyDoc& d : key_docs()) {
      std::vector<std::string>& keys = m[d.table];
      if (std::find(keys.begin(), keys.end(), d.key) == keys.end()) keys.push_back(d.key);
    }
    return m;
  }();
  return index;
}
}  // namespace

std::vector<std::string> documented_keys(const std::string& table) {
  const auto& index = keys_by_table();
  const auto it = index.find(table);
  return it == index.end() ? std::vector<std::string>{} : it->second;
}

bool is_documented_table(const std::string& table) { return keys_by_table().contains(table); }

bool is_retired_key(const std::string& table, const std::string& key) {
  for (const KeyDoc& d : key_docs())
    if (d.table == table && d.key == key) return d.retired;
  return false;
}

KeyReference build_key_reference() {
  KeyReference ref;
  std::map<Slot, const KeyDoc*> docs;
  for (const KeyDoc& d : key_docs()) {
    if (!docs.emplace(Slot{d.table, d.when, d.key}, &d).second)
      ref.problems.push_back(fmt::format("'{}' of {} is documented twice", d.key, where(d.table, d.when)));
    if (!d.retired && std::string(d.text).empty())
      ref.problems.push_back(fmt::format("'{}' of {} has no description", d.key, where(d.table, d.when)));
  }
  std::set<Slot> read;
  for (const KeyUse& u : recorded_uses()) {
    read.insert({u.table, u.when, u.key});
    auto it = docs.find({u.table, u.when, u.key});
    if (it == docs.end()) {
      ref.problems.push_back(fmt::format("'{}' of {} is read by the loader but not documented (key_docs.cpp): {}, {}, "
                                         "default {}",
                                         u.key, where(u.table, u.when), key_type_name(u.type), u.range,
                                         u.required ? "required" : u.fallback));
      continue;
    }
    if ((u.type == KeyType::kRetired) != it->second->retired)
      ref.problems.push_back(fmt::format("'{}' of {} is {} in the loader but not in key_docs.cpp", u.key,
                                         where(u.table, u.when), u.type == KeyType::kRetired ? "retired" : "read"));
    ref.entries.push_back({u, *it->second});
  }
  for (const KeyDoc& d : key_docs())
    if (!read.count({d.table, d.when, d.key}))
      ref.problems.push_back(fmt::format("'{}' of {} is documented but the loader never read it (a key removed, or a "
                                         "branch no probe scenario takes: key_reference.cpp)",
                                         d.key, where(d.table, d.when)));
  return ref;
}

namespace {

std::string cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string form_of(const KeyEntry& e) {
  if (*e.doc.form) return e.doc.form;
  return e.use.range;
}

std::string default_of(const KeyEntry& e) {
  if (*e.doc.dflt) return e.doc.dflt;
  if (e.use.required) return "required";
  return e.use.fallback;
}

std::string unit_of(const KeyEntry& e) {
  if (*e.doc.unit) return e.doc.unit;
  switch (e.use.type) {
    case KeyType::kSize: return "bytes";
    case KeyType::kDuration: return "seconds";
    case KeyType::kRate: return "bytes/s";
    default: return "";
  }
}

// Groups of entries by table and branch: a table's groups in the order the
// loader reads them, then the tables inside it, depth first.
void add_groups(const std::vector<std::vector<const KeyEntry*>>& all, const std::string& table,
                std::vector<std::vector<const KeyEntry*>>& out) {
  std::vector<std::string> inner;
  for (const auto& g : all) {
    if (g.front()->use.table != table) continue;
    out.push_back(g);
    for (const KeyEntry* e : g)  // tables, and lists of tables ([[expect]])
      if (e->use.type == KeyType::kTable || e->use.type == KeyType::kValue)
        inner.push_back(table.empty() ? e->use.key : table + "." + e->use.key);
  }
  for (const std::string& t : inner) add_groups(all, t, out);
}

std::vector<std::vector<const KeyEntry*>> groups(const KeyReference& ref) {
  std::vector<std::vector<const KeyEntry*>> all;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  for (const KeyEntry& e : ref.entries) {
    if (e.use.type == KeyType::kRetired) continue;
    auto [it, added] = index.emplace(std::make_pair(e.use.table, e.use.when), all.size());
    if (added) all.emplace_back();
    all[it->second].push_back(&e);
  }
  std::vector<std::vector<const KeyEntry*>> out;
  add_groups(all, "", out);
  return out;
}

// What a table is, from its entry in the table above it.
std::string table_text(const KeyReference& ref, const std::string& table) {
  const std::size_t dot = table.rfind('.');
  const std::string parent = dot == std::string::npos ? "" : table.substr(0, dot);
  const std::string name = dot == std::string::npos ? table : table.substr(dot + 1);
  for (const KeyEntry& e : ref.entries)
    if (e.use.type == KeyType::kTable && e.use.table == parent && e.use.key == name) return e.doc.text;
  return "";
}

const char* const kIntro = R"(# Scenario keys

Every key `clerk run` accepts in a scenario file, generated by `clerk keys --markdown` from the
loader's own declarations (models/scenario/key_reference.h): the type, range and default are what
the loader's getters declare as they read each key; the meaning, the nginx.conf directive or kernel
knob and the source are models/scenario/key_docs.cpp. A test keeps this file equal to the command's
output (tests/keys_test.sh); regenerate it with `scripts/regen-keys build`. `clerk keys TABLE` prints
one table in the terminal.

How values are written:
- sizes: bytes, or a number with k, m, g or t (powers of 1024): `4096`, `"512k"`, `"44g"`;
- times: a number of seconds, or with ns, us, ms, s, m or h: `"8.9ms"`, `"50us"`, `"60s"`;
- rates: with B/s, KB/s, MB/s, GB/s, TB/s (powers of 1000) or kbit/s, Mbit/s, Gbit/s, Tbit/s: `"500MB/s"`, `"10Gbit/s"`;
- on/off: `"on"`, `"off"`, `true` or `false`.

Files and tables:
- `include = "file.toml"` (or a list), at the top of a file or inside any table: the included
  file's keys are defaults, which the including file (or table) overrides. A name is relative to
  the including file, or `"@hardware/NAME"` for a hardware preset of scenarios/hardware/ (`.toml`
  optional; `$CLERK_SCENARIOS` moves the search to another folder). Missing files, cycles and
  chains deeper than 64 files are errors naming the include's line.
- `clerk run --set table.key=VALUE` changes one key from the command line.
- An unknown key is an error (with the nearest key or the table's keys), reported before a
  missing one; every error names the file, the line and the key, and exits with status 2.
)";

const char* const kNotModelled = R"(
## Not modelled yet

What an nginx.conf or a machine may have that no key expresses yet (issue 25 and the README):
- `sendfile off` (read() and write() through a buffer: `output_buffers` serves `directio` files only),
  gzip, TLS, HTTP/2 and proxying to upstreams (proxy_cache's misses and writes, `levels`, `max_size`);
  on the SimGrid engine `directio`, `aio on`, `io_uring`, `aio_nowait`, `os = "freebsd"`, several pools or
  disks and `open_file_cache`; with `os = "freebsd"`, FreeBSD's own page cache and disks (the Linux models serve).
- Writes: access logs, temporary files, the page cache's dirty pages.
- md arrays' writes (RAID1 and RAID10 write every copy), RAID4/5/6, RAID10's far and offset layouts, and
  arrays of unlike members.
- Of internet clients (clients.NAME rtt and bandwidth): packet loss and congestion avoidance, the
  clients' receive windows, delayed ACKs, pacing; on the SimGrid engine, internet clients at all.
)";

}  // namespace

std::string key_reference_markdown(const KeyReference& ref) {
  std::string out = kIntro;
  for (const auto& group : groups(ref)) {
    const KeyEntry& first = *group.front();
    out += "\n## " + where(first.use.table, first.use.when) + "\n\n";
    if (const std::string t = table_text(ref, first.use.table); !t.empty()) out += t + "\n\n";
    out += "| key | type | values | default | unit | stands for | source | what it models |\n";
    out += "|---|---|---|---|---|---|---|---|\n";
    for (const KeyEntry* e : group)
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} |\n", e->use.key, key_type_name(e->use.type),
                         cell(form_of(*e)), cell(default_of(*e)), cell(unit_of(*e)), cell(e->doc.equivalent),
                         cell(e->doc.source), cell(e->doc.text));
  }
  out += "\n## Retired keys\n\nThe loader refuses these with a message saying what replaced them.\n\n";
  out += "| table | key | what replaced it |\n|---|---|---|\n";
  for (const KeyEntry& e : ref.entries)
    if (e.use.type == KeyType::kRetired)
      out += fmt::format("| {} | `{}` | {} |\n", cell(where(e.use.table, e.use.when)), e.use.key, cell(e.use.range));
  out += kNotModelled;
  return out;
}

bool key_reference_text(const KeyReference& ref, const std::string& table, std::string& out) {
  bool any = false;
  for (const auto& group : groups(ref)) {
    const KeyEntry& first = *group.front();
    if (!table.empty() && first.use.table != table && !(table == "top" && first.use.table.empty())) continue;
    any = true;
    out += where(first.use.table, first.use.when);
    if (const std::string t = table_text(ref, first.use.table); !t.empty()) out += ": " + t;
    out += "\n";
    for (const KeyEntry* e : group) {
      std::string head = fmt::format("  {} ({}", e->use.key, key_type_name(e->use.type));
      if (const std::string f = form_of(*e); !f.empty()) head += ", " + f;
      if (const std::string u = unit_of(*e); !u.empty() && e->use.type != KeyType::kSize &&
                                               e->use.type != KeyType::kDuration && e->use.type != KeyType::kRate)
        head += ", in " + u;
      if (const std::string d = default_of(*e); !d.empty()) head += d == "required" ? ", required" : ", default " + d;
      out += head + ")\n      " + e->doc.text;
      if (*e->doc.equivalent) out += std::string(" Stands for: ") + e->doc.equivalent + ".";
      if (*e->doc.source) out += std::string(" Source: ") + e->doc.source + ".";
      out += "\n";
    }
  }
  return any;
}

namespace {
// "clients.NAME" matches "clients.random": a NAME part matches any part.
bool table_matches(const std::string& pattern, const std::string& table) {
  std::size_t p = 0, t = 0;
  for (;;) {
    const std::size_t pe = std::min(pattern.find('.', p), pattern.size());
    const std::size_t te = std::min(table.find('.', t), table.size());
    const std::string_view part(pattern.data() + p, pe - p);
    if (part != "NAME" && part != std::string_view(table.data() + t, te - t)) return false;
    if (pe == pattern.size() || te == table.size()) return pe == pattern.size() && te == table.size();
    p = pe + 1;
    t = te + 1;
  }
}
}  // namespace

KeyType key_type_of(const KeyReference& ref, const std::string& dotted) {
  const std::size_t dot = dotted.rfind('.');
  const std::string table = dot == std::string::npos ? "" : dotted.substr(0, dot);
  const std::string key = dot == std::string::npos ? dotted : dotted.substr(dot + 1);
  for (const KeyEntry& e : ref.entries) {
    if (e.use.key != key || e.use.type == KeyType::kRetired || !table_matches(e.use.table, table)) continue;
    // A word or a time (warmup: "settled" or a time): its times are times.
    if (e.use.type == KeyType::kValue && std::string_view(e.doc.form).find("a time") != std::string_view::npos)
      return KeyType::kDuration;
    return e.use.type;
  }
  return KeyType::kValue;
}

std::string key_summary(const KeyReference& ref, const std::string& dotted) {
  const std::size_t dot = dotted.rfind('.');
  const std::string table = dot == std::string::npos ? "" : dotted.substr(0, dot);
  const std::string key = dot == std::string::npos ? dotted : dotted.substr(dot + 1);
  for (const KeyEntry& e : ref.entries) {
    if (e.use.table != table || e.use.key != key || e.use.type == KeyType::kRetired) continue;
    std::string head = fmt::format("{} ({}", dotted, key_type_name(e.use.type));
    if (const std::string f = form_of(e); !f.empty()) head += ", " + f;
    if (const std::string u = unit_of(e); !u.empty() && e.use.type != KeyType::kSize &&
                                          e.use.type != KeyType::kDuration && e.use.type != KeyType::kRate)
      head += ", in " + u;
    if (const std::string d = default_of(e); !d.empty()) head += d == "required" ? ", required" : ", default " + d;
    return head + "): " + e.doc.text;
  }
  return "";
}

}  // namespace models
