// The pieces that decide what may be served, checked directly: the target
// decoding, the request-head parser (with a fixed-seed fuzz loop) and the
// confined open, both with openat2 and with its per-component fallback; the
// connection slots' drain.
#include <fcntl.h>

#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "connection_slots.h"
#include "file_resolver.h"
#include "http_request.h"
#include "test_client.h"

using namespace clerk::serve;

TEST_CASE("request targets become paths under the root, or are refused", "[serve][unit]") {
  CHECK(target_to_relative_path("/a/b.txt") == "a/b.txt");
  CHECK(target_to_relative_path("//a///b.txt") == "a/b.txt");
  CHECK(target_to_relative_path("/./a/./b") == "a/b");
  CHECK(target_to_relative_path("/a%20b?x=/../y") == "a b");
  CHECK(target_to_relative_path("/") == "");
  CHECK(target_to_relative_path("/%41") == "A");
  for (const char* bad : {"", "a", "/..", "/../x", "/a/../b", "/%2e%2e/x", "/%2E%2e", "/a%2fb", "/a%2F..", "/%00",
                          "/a%0", "/a%", "/%g1", "http://h/x", "*"})
    CHECK_FALSE(target_to_relative_path(bad).has_value());
}

TEST_CASE("request heads", "[serve][unit]") {
  auto parse = [](const std::string& text) { return parse_request_head(text.data(), text.size(), 8192); };
  auto ok = parse("GET /x HTTP/1.1\r\nHost: h\r\n\r\nGET /y");
  REQUIRE(ok.state == RequestHead::State::complete);
  CHECK(ok.consumed == 28);
  CHECK(ok.target == "/x");
  CHECK(ok.keep_alive);
  CHECK(ok.method_allowed);
  CHECK_FALSE(ok.head_only);
  CHECK(parse("HEAD /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keep_alive);
  CHECK_FALSE(parse("GET /x HTTP/1.0\r\n\r\n").keep_alive);
  CHECK(parse("HEAD /x HTTP/1.0\r\n\r\n").head_only);
  CHECK_FALSE(parse("POST /x HTTP/1.1\r\nHost: h\r\n\r\n").method_allowed);
  CHECK(parse("GET /x HTTP/1.1\r\nHost: h\r\n").state == RequestHead::State::need_more);
  CHECK(parse("GET /x HTTP/1.1\r\n\r\n").state == RequestHead::State::bad);
  CHECK(parse("GET /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx").state == RequestHead::State::bad);
  CHECK(parse("\x01\x02garbage\r\n\r\n").state == RequestHead::State::bad);
  const std::string huge = "GET /x HTTP/1.1\r\nHost: h\r\nX: " + std::string(9000, 'a');
  const auto over = parse(huge);
  CHECK(over.state == RequestHead::State::bad);
  CHECK(over.error_status == 431);
}

// Beast keeps a field's name and value lengths in 16 bits and throws for one
// of 64 KiB or more; --header-limit allows 1 MiB, so the parser must turn
// that into a 431 instead of letting it end the worker (issue 21, finding 3).
// A head of B bytes fed a byte at a time: the parser runs at each doubling
// of the buffer and at the head's end, log2(B) + 2 times at most, and the
// search for the end looks at each byte once (plus 3 a read): O(B) in all,
// where parsing the whole buffer per read was B^2 / 2.
TEST_CASE("a head arriving a byte at a time is parsed O(log B) times and searched once", "[serve][unit]") {
  std::string head = "GET /x HTTP/1.1\r\nHost: t\r\n";
  while (head.size() < 100000) head += "X-Pad: " + std::string(100, 'a') + "\r\n";
  head += "\r\n";
  const std::size_t limit = 1 << 20;
  clerk::serve::HeadProgress progress;
  std::size_t complete_at = 0;
  for (std::size_t n = 1; n <= head.size() && complete_at == 0; ++n) {
    if (!progress.worth_parsing(head.data(), n, limit)) continue;
    if (clerk::serve::parse_request_head(head.data(), n, limit).state == clerk::serve::RequestHead::State::complete)
      complete_at = n;
  }
  CHECK(complete_at == head.size());  // found at its last byte, not later
  CHECK(progress.parses() <= 19);     // 1, 2, 4, ... 65,536 bytes (17), then the end
  CHECK(progress.bytes_searched() <= 4 * head.size());
  // The next head starts afresh: its first read is parsed.
  progress.next_head();
  CHECK(progress.worth_parsing("B@D / HTTP/1.1\r\n", 16, limit));
  CHECK(clerk::serve::parse_request_head("B@D / HTTP/1.1\r\n", 16, limit).state ==
        clerk::serve::RequestHead::State::bad);
  // At the limit it parses, whatever came before (431 there).
  clerk::serve::HeadProgress full;
  CHECK(full.worth_parsing(head.data(), 100, 1000));
  CHECK_FALSE(full.worth_parsing(head.data(), 150, 1000));
  CHECK(full.worth_parsing(head.data(), 1000, 1000));
}

TEST_CASE("a header field over Beast's 64 KiB field limit is 431, not an exception", "[serve][unit]") {
  const std::size_t limit = std::size_t{1} << 20;
  auto parse = [&](const std::string& text) { return parse_request_head(text.data(), text.size(), limit); };
  for (std::size_t size : {std::size_t{64} * 1024, std::size_t{65534}, std::size_t{200} * 1024}) {
    INFO("field size " << size);
    const std::string long_value = "GET /x HTTP/1.1\r\nHost: h\r\nX: " + std::string(size, 'a') + "\r\n\r\n";
    RequestHead value_head;
    REQUIRE_NOTHROW(value_head = parse(long_value));
    CHECK(value_head.state == RequestHead::State::bad);
    CHECK(value_head.error_status == 431);
    const std::string long_name = "GET /x HTTP/1.1\r\nHost: h\r\n" + std::string(size, 'n') + ": v\r\n\r\n";
    RequestHead name_head;
    REQUIRE_NOTHROW(name_head = parse(long_name));
    CHECK(name_head.state == RequestHead::State::bad);
    CHECK(name_head.error_status == 431);
  }
  // Just under Beast's field limit, within ours: served as usual.
  const std::string fits = "GET /x HTTP/1.1\r\nHost: h\r\nX: " + std::string(60000, 'a') + "\r\n\r\n";
  CHECK(parse(fits).state == RequestHead::State::complete);
}

TEST_CASE("the parser survives random input (fixed seed)", "[serve][unit]") {
  std::mt19937 random(42);
  const std::string valid = "GET /sub/inner.txt?q=1 HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n";
  int complete = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string input = valid;
    if (i % 3 == 0) {
      input.resize(random() % 200);
      for (char& c : input) c = static_cast<char>(random());
    } else {
      const int edits = 1 + static_cast<int>(random() % 6);
      for (int k = 0; k < edits; ++k) input[random() % input.size()] = static_cast<char>(random() % 256);
    }
    const auto head = parse_request_head(input.data(), input.size(), 1 + random() % 256);
    if (head.state == RequestHead::State::complete) {
      ++complete;
      REQUIRE(head.consumed <= input.size());
      const auto path = target_to_relative_path(head.target);
      if (path) {
        CHECK(("/" + *path + "/").find("/../") == std::string::npos);
        CHECK(path->find('\0') == std::string::npos);
      }
    }
  }
  CHECK(complete > 0);  // the mutations did reach the target decoder
}

TEST_CASE("files open only beneath the root, never through a symlink", "[serve][unit]") {
  test::TempTree tree;
  UniqueFd root(::open(tree.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(root.valid());
  for (bool fallback : {false, true}) {
    INFO("fallback walk: " << fallback);
    auto small = resolve_file(root.get(), "small.txt", fallback);
    CHECK(small.status == 200);
    CHECK(small.fd.valid());
    CHECK(small.size == static_cast<off_t>(tree.small.size()));
    CHECK(resolve_file(root.get(), "sub/inner.txt", fallback).status == 200);
    CHECK(resolve_file(root.get(), "missing", fallback).status == 404);
    CHECK(resolve_file(root.get(), "small.txt/x", fallback).status == 404);
    CHECK(resolve_file(root.get(), "sub", fallback).status == 403);
    CHECK(resolve_file(root.get(), "", fallback).status == 403);
    CHECK(resolve_file(root.get(), "fifo", fallback).status == 403);
    CHECK(resolve_file(root.get(), "link", fallback).status == 403);
    CHECK(resolve_file(root.get(), "passwd", fallback).status == 403);
    auto through = resolve_file(root.get(), "dirlink/secret.txt", fallback);
    CHECK(through.status == 403);  // a link in the middle of the path, as at its end (found by fuzz_http)
    CHECK_FALSE(through.fd.valid());
  }
  // openat2 itself refuses ".." out of the root (the parser never passes one).
  CHECK(resolve_file(root.get(), "../x").status != 200);
}

namespace {

// A connection as the slots see it: reuse() closes it, giving its slot back.
class FakeConnection final : public Reusable {
 public:
  FakeConnection(ConnectionSlots& slots, std::string name, std::vector<std::string>& closed)
      : slots_(slots), name_(std::move(name)), closed_(closed) {
    slots_.take();
  }
  void reuse() override {
    closed_.push_back(name_);
    slots_.give_back();
  }

 private:
  ConnectionSlots& slots_;
  std::string name_;
  std::vector<std::string>& closed_;
};

}  // namespace

TEST_CASE("ngx_drain_connections' count: max(min(32, reusable / 8), 1)", "[serve][unit]") {
  CHECK(drain_count(1) == 1);
  CHECK(drain_count(15) == 1);
  CHECK(drain_count(16) == 2);
  CHECK(drain_count(255) == 31);
  CHECK(drain_count(256) == 32);
  CHECK(drain_count(100000) == 32);
}

TEST_CASE("a drain closes the connections reusable the longest, and only with slots short", "[serve][unit]") {
  // 64 slots: 2 reserved, 62 for clients; reuse starts with 64 / 16 = 4 free.
  ConnectionSlots slots(64);
  std::vector<std::string> closed;
  std::vector<std::unique_ptr<FakeConnection>> connections;
  for (int i = 0; i < 57; ++i)
    connections.push_back(std::make_unique<FakeConnection>(slots, std::to_string(i), closed));
  for (int i : {3, 1, 2, 0}) slots.set_reusable(*connections[static_cast<std::size_t>(i)], true);
  slots.set_reusable(*connections[3], true);   // again: now the newest
  slots.set_reusable(*connections[2], false);  // busy again: out of the queue
  CHECK(slots.free_slots() == 5);
  CHECK(slots.drain() == 0);  // 5 free: more than 64 / 16
  connections.push_back(std::make_unique<FakeConnection>(slots, "57", closed));
  CHECK(slots.free_slots() == 4);
  CHECK(slots.drain() == 1);  // 3 reusable: max(min(32, 0), 1)
  CHECK(closed == std::vector<std::string>{"1"});
  CHECK(slots.free_slots() == 5);
  CHECK(slots.reusable() == 2);
  for (int i = 0; i < 5; ++i) connections.push_back(std::make_unique<FakeConnection>(slots, "x", closed));
  CHECK(slots.full());
  CHECK(slots.drain() == 1);
  CHECK(closed == std::vector<std::string>{"1", "0"});
  CHECK(slots.drain() == 1);
  CHECK(closed == std::vector<std::string>{"1", "0", "3"});
  CHECK(slots.reusable() == 0);
  CHECK(slots.drain() == 0);  // none reusable: the new connection is refused
}
