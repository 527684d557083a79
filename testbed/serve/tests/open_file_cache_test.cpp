// The open-file cache (open_file_cache.h) against hand-made times: when an
// entry is a hit, retested, expired for inactivity or evicted when full, in
// nginx's order, and that every descriptor it opened is closed again (a
// count of this process's open descriptors).
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "open_file_cache.h"
#include "test_client.h"

using namespace clerk::serve;
using Action = OpenFileCache::Action;

namespace {

std::size_t open_descriptors() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// A root with files a..f (and sub/inner.txt, small.txt ... from TempTree).
struct Root {
  Root() : fd(::open(tree.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)) {
    for (const char* name : {"a", "b", "c", "d", "e", "f"}) std::ofstream(tree.root + "/" + name) << name;
  }
  test::TempTree tree;
  UniqueFd fd;
};

OpenFileCacheOptions options(std::size_t max, std::int64_t inactive, std::int64_t valid) {
  OpenFileCacheOptions o;
  o.max = max;
  o.inactive_s = inactive;
  o.valid_s = valid;
  return o;
}

// One request for `name` at `now`, the walk done inline as on the loop; the
// response ends at once (release) unless `hold` keeps its file.
Action request(OpenFileCache& cache, const Root& root, const std::string& name, std::int64_t now,
               OpenOutcome* hold = nullptr, int* status = nullptr) {
  OpenFileCache::Lookup lookup = cache.lookup(name, now);
  OpenOutcome outcome = lookup.action == Action::kHit
                            ? std::move(lookup.hit)
                            : cache.complete(name, resolve_file(root.fd.get(), name), lookup.counted, now);
  if (status != nullptr) *status = outcome.status;
  if (hold != nullptr) {
    *hold = std::move(outcome);
  } else if (outcome.file) {
    cache.release(name, std::move(outcome.file), now);
  }
  return lookup.action;
}

// One request for each name at its time, in order, each ending at once.
void requests(OpenFileCache& cache, const Root& root, std::initializer_list<std::pair<const char*, std::int64_t>> at) {
  for (const auto& [name, now] : at) request(cache, root, name, now);
}

// Which of `names` the cache holds, in the order given.
std::vector<std::string> cached(const OpenFileCache& cache, std::initializer_list<const char*> names) {
  std::vector<std::string> out;
  for (const char* name : names)
    if (cache.holds(name)) out.emplace_back(name);
  return out;
}
using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("open_file_cache_valid: a hit until valid seconds after the open, then a retest", "[serve][unit][ofc]") {
  Root root;
  OpenFileCache cache(options(10, 1000, 60));
  CHECK(request(cache, root, "a", 100) == Action::kOpen);
  CHECK(request(cache, root, "a", 159) == Action::kHit);  // 159 - 100 < 60
  CHECK(request(cache, root, "a", 160) == Action::kRetest);
  // The retest counts as created at 160: hits until 219.
  CHECK(request(cache, root, "a", 219) == Action::kHit);
  CHECK(request(cache, root, "a", 220) == Action::kRetest);
  CHECK(cache.stats().opens == 1);
  CHECK(cache.stats().hits == 2);
  CHECK(cache.stats().retests == 2);
}

TEST_CASE("a retest keeps the descriptor of the same file and takes a changed file's", "[serve][unit][ofc]") {
  Root root;
  OpenFileCache cache(options(10, 1000, 60));
  OpenOutcome first;
  request(cache, root, "a", 0, &first);
  REQUIRE(first.status == 200);
  const std::size_t before = open_descriptors();
  OpenOutcome same;
  CHECK(request(cache, root, "a", 60, &same) == Action::kRetest);
  CHECK(same.file == first.file);            // the entry's descriptor; the retest's own is closed
  CHECK(open_descriptors() == before);
  // "a" replaced by another file (a new inode): the retest takes it.
  std::ofstream(root.tree.root + "/a.new") << "changed";
  REQUIRE(std::rename((root.tree.root + "/a.new").c_str(), (root.tree.root + "/a").c_str()) == 0);
  OpenOutcome changed;
  CHECK(request(cache, root, "a", 120, &changed) == Action::kRetest);
  REQUIRE(changed.status == 200);
  CHECK(changed.file != first.file);
  CHECK(changed.file->size == 7);
  CHECK(request(cache, root, "a", 121, nullptr) == Action::kHit);
  // The old descriptor stays open while its responses hold it, then closes.
  const std::size_t with_old = open_descriptors();
  cache.release("a", std::move(first.file), 121);
  cache.release("a", std::move(same.file), 121);
  CHECK(open_descriptors() == with_old - 1);
  cache.release("a", std::move(changed.file), 121);
  CHECK(cache.descriptors() == 1);
}

TEST_CASE("inactive: a response's end drops up to two entries unused for over inactive seconds", "[serve][unit][ofc]") {
  Root root;
  OpenFileCache cache(options(10, 20, 1000));
  requests(cache, root, {{"a", 0}, {"b", 5}, {"c", 10}, {"d", 25}});
  // At 25: a (25 s unused) goes; b (20 s, not over 20) stays; nothing past it is looked at.
  CHECK(cached(cache, {"a", "b", "c"}) == Names{"b", "c"});
  // A lookup does not test inactivity: b, unused for 40 s, is still a hit...
  CHECK(request(cache, root, "b", 45) == Action::kHit);
  // ...and its end, at 45, drops c (35 s unused) and stops at d (20 s: not over 20).
  CHECK(cached(cache, {"b", "c", "d"}) == Names{"b", "d"});
  request(cache, root, "e", 46);  // its end drops d (21 s)
  CHECK_FALSE(cache.holds("d"));
  request(cache, root, "f", 47);
  // At most two at a time, and only at a response's end.
  OpenOutcome held;
  request(cache, root, "sub/inner.txt", 100, &held);
  CHECK(cache.size() == 4);  // inner, f, e, b: none dropped yet
  cache.release("sub/inner.txt", std::move(held.file), 100);
  // f: the third inactive one, not looked at.
  CHECK(cached(cache, {"b", "e", "f", "sub/inner.txt"}) == Names{"f", "sub/inner.txt"});
  CHECK(cache.stats().evictions == 5);
}

TEST_CASE("max: a full cache drops its least recently used entry first", "[serve][unit][ofc]") {
  Root root;
  OpenFileCache cache(options(3, 1000, 1000));
  requests(cache, root, {{"a", 0}, {"b", 1}, {"c", 2}});
  CHECK(request(cache, root, "a", 3) == Action::kHit);  // a goes to the head: b is the LRU now
  request(cache, root, "d", 4);
  CHECK(cached(cache, {"a", "b", "c"}) == Names{"a", "c"});
  request(cache, root, "e", 5);
  CHECK_FALSE(cache.holds("c"));
  request(cache, root, "f", 6);
  CHECK_FALSE(cache.holds("a"));
  CHECK(cache.size() == 3);
  CHECK(cached(cache, {"d", "e", "f"}) == Names{"d", "e", "f"});
  // Full, with inactive entries behind the LRU one: the forced drop, then up to two inactive.
  OpenFileCache short_lived(options(3, 10, 1000));
  requests(short_lived, root, {{"a", 0}, {"b", 1}, {"c", 30}});  // c's end drops a and b (inactive)
  CHECK(short_lived.size() == 1);
  requests(short_lived, root, {{"d", 31}, {"e", 32}});
  OpenOutcome held;
  request(short_lived, root, "f", 50, &held);  // full: c forced out, then d and e inactive
  CHECK(short_lived.size() == 1);
  CHECK(short_lived.holds("f"));
}

TEST_CASE("min_uses: a descriptor used fewer times is closed at the response's end", "[serve][unit][ofc]") {
  Root root;
  OpenFileCacheOptions o = options(10, 1000, 1000);
  o.min_uses = 2;
  OpenFileCache cache(o);
  CHECK(request(cache, root, "a", 0) == Action::kOpen);
  CHECK(cache.holds("a"));
  CHECK(cache.descriptors() == 0);
  CHECK(request(cache, root, "a", 1) == Action::kOpen);  // reopened: the second use
  CHECK(cache.descriptors() == 1);
  CHECK(request(cache, root, "a", 2) == Action::kHit);
}

TEST_CASE("failed opens: not kept, or with errors on answered from the cache", "[serve][unit][ofc]") {
  Root root;
  int status = 0;
  OpenFileCache plain(options(10, 1000, 60));
  CHECK(request(plain, root, "missing", 0, nullptr, &status) == Action::kOpen);
  CHECK(status == 404);
  CHECK_FALSE(plain.holds("missing"));
  CHECK(request(plain, root, "link", 0, nullptr, &status) == Action::kOpen);
  CHECK(status == 403);
  // A held file that disappears: its retest fails and drops it.
  request(plain, root, "a", 0);
  REQUIRE(std::remove((root.tree.root + "/a").c_str()) == 0);
  CHECK(request(plain, root, "a", 59) == Action::kHit);  // within valid: still served from the descriptor
  CHECK(request(plain, root, "a", 60, nullptr, &status) == Action::kRetest);
  CHECK(status == 404);
  CHECK_FALSE(plain.holds("a"));

  OpenFileCacheOptions o = options(10, 1000, 60);
  o.errors = true;
  OpenFileCache errors(o);
  CHECK(request(errors, root, "missing", 0, nullptr, &status) == Action::kOpen);
  CHECK(request(errors, root, "missing", 59, nullptr, &status) == Action::kHit);
  CHECK(status == 404);
  CHECK(request(errors, root, "sub", 0, nullptr, &status) == Action::kOpen);
  CHECK(request(errors, root, "sub", 1, nullptr, &status) == Action::kHit);
  CHECK(status == 403);
  // Created meanwhile: the retest after valid serves it.
  std::ofstream(root.tree.root + "/missing") << "here";
  CHECK(request(errors, root, "missing", 60, nullptr, &status) == Action::kRetest);
  CHECK(status == 200);
  CHECK(errors.descriptors() == 1);
  // A 500 is never kept: an open that failed for lack of a descriptor.
  ResolvedFile no_fd;
  no_fd.status = 500;
  CHECK(errors.complete("b", std::move(no_fd), false, 61).status == 500);
  CHECK_FALSE(errors.holds("b"));
}

TEST_CASE("every descriptor the cache opened is closed on eviction, clear and destruction", "[serve][unit][ofc]") {
  Root root;
  const std::size_t baseline = open_descriptors();
  {
    OpenFileCache cache(options(2, 1000, 1000));
    for (const char* name : {"a", "b", "c", "d", "e", "f"}) request(cache, root, name, 0);
    CHECK(cache.size() == 2);
    CHECK(open_descriptors() == baseline + 2);
    // A response holding an evicted entry's file keeps it open until its end.
    OpenOutcome held;
    request(cache, root, "a", 1, &held);  // evicts e
    request(cache, root, "b", 2);         // evicts f
    request(cache, root, "c", 3);         // evicts a, held
    CHECK(open_descriptors() == baseline + 3);
    cache.release("a", std::move(held.file), 4);
    CHECK(open_descriptors() == baseline + 2);
    cache.clear();
    CHECK(cache.size() == 0);
    CHECK(open_descriptors() == baseline);
    for (const char* name : {"a", "b"}) request(cache, root, name, 10);
    CHECK(open_descriptors() == baseline + 2);
  }
  CHECK(open_descriptors() == baseline);
  // Off (max 0): nothing is kept.
  OpenFileCache off(options(0, 60, 60));
  CHECK(request(off, root, "a", 0) == Action::kOpen);
  CHECK(request(off, root, "a", 0) == Action::kOpen);
  CHECK(off.size() == 0);
  CHECK(open_descriptors() == baseline);
}

TEST_CASE("two offloaded opens of one name: the second completes the first one's entry", "[serve][unit][ofc]") {
  Root root;
  OpenFileCache cache(options(10, 1000, 60));
  // Both miss before either walk is done (--aio-open: the walks run in the pool).
  const auto first = cache.lookup("a", 0);
  const auto second = cache.lookup("a", 0);
  CHECK(first.action == Action::kOpen);
  CHECK(second.action == Action::kOpen);
  const std::size_t before = open_descriptors();
  OpenOutcome one = cache.complete("a", resolve_file(root.fd.get(), "a"), first.counted, 0);
  OpenOutcome two = cache.complete("a", resolve_file(root.fd.get(), "a"), second.counted, 0);
  CHECK(one.file == two.file);  // one descriptor for both; the second walk's own is closed
  CHECK(open_descriptors() == before + 1);
  CHECK(cache.size() == 1);
  cache.release("a", std::move(one.file), 0);
  cache.release("a", std::move(two.file), 0);
  CHECK(cache.lookup("a", 1).action == Action::kHit);
}
