// What a clerk-disk file holds: bytes computed from the file's path and the
// offset, so that a data set of any size costs no storage and any reader can
// check what it got. Each aligned 8-byte word w of a file is
// splitmix64(path_key ^ (w * golden ratio)), little-endian; path_key is the
// FNV-1a hash of the file's path ("/1/2/3"). A read at any offset and length
// takes the bytes of the words it overlaps.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace testbed::disk {

std::uint64_t path_key(std::string_view path);

// Fills buf[0, length) with the file's bytes from `offset` on.
void fill_content(std::uint64_t key, std::uint64_t offset, char* buf, std::size_t length);

// The first offset in [offset, offset + length) where buf differs from the
// file's bytes, or -1 when all match.
std::int64_t first_mismatch(std::uint64_t key, std::uint64_t offset, const char* buf, std::size_t length);

}  // namespace testbed::disk
