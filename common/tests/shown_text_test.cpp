// Hostile text shown in messages (common/shown_text.h): controls, bytes that
// are not UTF-8 and terminal-reordering code points escaped; ordinary text,
// ASCII and UTF-8 alike, as written.
#include <catch2/catch.hpp>

#include <string>

#include "common/shown_text.h"

using common::shown_text;

TEST_CASE("shown text: ordinary text, backslashes and UTF-8 included, is kept as written") {
  CHECK(shown_text("worker_processes \"two words\" a\\;b /srv/www") == "worker_processes \"two words\" a\\;b /srv/www");
  CHECK(shown_text("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80");
  CHECK(shown_text("").empty());
}

TEST_CASE("shown text: control characters, a NUL and DEL are escaped, not passed to the terminal") {
  CHECK(shown_text("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(shown_text(std::string("x\0y", 3)) == "x\\0y");  // a NUL would cut what() short
  CHECK(shown_text("\x1b[2J\x1b]0;title\x07") == "\\x1b[2J\\x1b]0;title\\x07");
  CHECK(shown_text("\x7f") == "\\x7f");
}

TEST_CASE("shown text: bytes that are not UTF-8 are escaped one by one, the rest kept") {
  CHECK(shown_text("a\xff" "b") == "a\\xffb");
  CHECK(shown_text("\xc0\xaf") == "\\xc0\\xaf");          // an overlong '/'
  CHECK(shown_text("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  CHECK(shown_text("\xe2\x86") == "\\xe2\\x86");          // cut short at the end
  CHECK(shown_text("\x80" "caf\xc3\xa9") == "\\x80caf\xc3\xa9");
}

TEST_CASE("shown text: C1 controls and bidirectional overrides are escaped as code points") {
  CHECK(shown_text("\xc2\x9b" "2J") == "\\u{009b}2J");                  // CSI in 8 bits
  CHECK(shown_text("ab\xe2\x80\xae" "cd") == "ab\\u{202e}cd");         // right-to-left override
  CHECK(shown_text("\xe2\x81\xa6x\xe2\x81\xa9") == "\\u{2066}x\\u{2069}");  // an isolate
  CHECK(shown_text("\xef\xbb\xbfhttp") == "\\u{feff}http");                 // a byte order mark shows nothing
  CHECK(shown_text("a\xe2\x80\xa8" "b") == "a\\u{2028}b");                   // a line separator
}

TEST_CASE("shown text: what it shows is shown again as it is") {
  const std::string hostile = std::string("a\0\x1b[31m\xff\xc2\x9b\n", 11);
  CHECK(shown_text(shown_text(hostile)) == shown_text(hostile));
}

// Hostile probe 3, finding 13: reports and CLI11's messages are several lines.
TEST_CASE("shown lines: line ends kept, everything else in a line shown as shown_text shows it") {
  CHECK(common::shown_lines("Running 1s test\n  2 threads\n") == "Running 1s test\n  2 threads\n");
  CHECK(common::shown_lines("group h\x1b]0;pwn\x07:\nnext\r") == "group h\\x1b]0;pwn\\x07:\nnext\\r");
  CHECK(common::shown_lines("a\xe2\x80\xae" "b\n\xc2\x9b") == "a\\u{202e}b\n\\u{009b}");
  CHECK(common::shown_lines("").empty());
  CHECK(common::shown_lines("\n\n") == "\n\n");
}

TEST_CASE("shown lines: showing shown text again changes nothing (guarded() shows messages escaped already)") {
  const std::string hostile = "a\x1b]0;x\x07\xff\xe2\x80\xae\\x1b\n\tb";
  CHECK(common::shown_lines(common::shown_lines(hostile)) == common::shown_lines(hostile));
  CHECK(common::shown_lines(shown_text(hostile)) == shown_text(hostile));
}

// Hostile probe 6, section 8: an [[expect]]'s note and known_miss, printed by
// clerk validate, are prose as a description is: line breaks and tabs kept.
TEST_CASE("shown prose: line ends and tabs kept, every other control shown escaped") {
  CHECK(common::shown_prose("a note\n\tindented\n") == "a note\n\tindented\n");
  CHECK(common::shown_prose("n\x1b[31m\tk\x1b]0;TITLE\x07x\r\n") == "n\\x1b[31m\tk\\x1b]0;TITLE\\x07x\\r\n");
  CHECK(common::shown_prose(std::string("\0\x7f\xff", 3)) == "\\0\\x7f\\xff");
  CHECK(common::shown_prose("").empty());
  CHECK(common::shown_prose(common::shown_prose("a\x1b\tb")) == common::shown_prose("a\x1b\tb"));
}
