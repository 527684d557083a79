# The libFuzzer build (fuzz/): -DCLERK_FUZZ=ON with clang. Included by the
# top-level CMakeLists.txt before any library is defined, because coverage
# needs every library of ours instrumented (-fsanitize=fuzzer-no-link), not
# only the targets. Off by default: the normal GCC builds are unaffected.
option(CLERK_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)
if(CLERK_FUZZ)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer,address,undefined")
  check_cxx_source_compiles([[
    #include <cstddef>
    #include <cstdint>
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }
  ]] CLERK_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CLERK_HAVE_LIBFUZZER)
    message(WARNING "CLERK_FUZZ needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev); "
                    "building without the fuzz targets")
    set(CLERK_FUZZ OFF)
  else()
    # -Wno-error: the GCC builds hold warnings as errors; clang reports a few
    # more (e.g. -Wunused-private-field), which here are printed, not fatal,
    # so that a fuzz run never waits on them.
    target_compile_options(clerk_warnings INTERFACE
      -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -Wno-error)
    target_link_options(clerk_warnings INTERFACE -fsanitize=address,undefined)
  endif()
endif()
