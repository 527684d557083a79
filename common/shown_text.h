// Text from a file or a command line put into a message for a terminal (an
// error naming a token, a directive, a value, a path): what cannot be shown
// as it is, is shown escaped, so that a hostile file can neither rewrite
// the terminal (ESC starts a control sequence), forge lines of the message
// (CR, LF), cut it short (a NUL ends what() as a C string) nor garble it
// (bytes that are not UTF-8):
//  - \0 \t \n \r for those controls, \xHH for any other C0 control and DEL;
//  - \xHH for each byte that does not belong to valid UTF-8 (an overlong
//    form, a surrogate, a code point beyond U+10FFFF, a lone continuation);
//  - \u{HHHH} for the C1 controls (U+0080..U+009F: some terminals take
//    U+009B as CSI), the bidirectional marks, overrides and isolates
//    (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), which reorder what
//    follows them, the line and paragraph separators (U+2028, U+2029), and
//    the characters of no width (U+200B..U+200D, U+FEFF: a byte order mark).
// Everything else, printable ASCII (backslashes too) and valid UTF-8 text,
// is kept as written: a message about ordinary text reads as before.
#pragma once
#include <string>
#include <string_view>

namespace common {

std::string shown_text(std::string_view text);

// A report or message of several lines: each line shown as above, the line
// ends ('\n') kept, so ordinary text is unchanged and a hostile name inside
// it can neither add a control sequence nor forge a line.
std::string shown_lines(std::string_view text);

// Prose a scenario writes over several lines (an expectation's note, the
// scenario's description): as shown_lines, its tabs kept too, as the loader
// keeps a description's line breaks and tabs and refuses any other control.
std::string shown_prose(std::string_view text);

// Text put into a message that may be megabytes long (a value or a key
// name: a scenario may be 16 MiB and has no limit on either; probe 8, M7),
// cut as a lesson cuts a refused expression: text of more than 200 bytes
// becomes its first 80 bytes, "...(N bytes)...", and its last 40 (cut at
// UTF-8 characters' starts). Shorter text is returned as it is.
std::string cut_long(std::string_view text);

// A message with each run of more than 200 bytes without a space or line
// break cut by cut_long (the prose around a value has no such words), then,
// if it is still over 4096 bytes (a long value with spaces in it), its first
// 2048 and last 1024 bytes with "...(N bytes left out)..." between. The
// loader's errors (models::ConfigError) pass through this before shown_text.
std::string cut_long_message(std::string_view message);

}  // namespace common
