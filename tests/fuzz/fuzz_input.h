// Shared body of our libFuzzer targets: turns the fuzzer's bytes into the text a parser reads and
// runs the parser, accepting af::InputError (the documented way to reject bad input). Any other
// exception escapes and libFuzzer reports it as a finding, like a crash or a sanitizer error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "autofuse/support/error.h"

namespace af::fuzz {

template <typename Parse>
int RunParser(const std::uint8_t* data, std::size_t size, Parse&& parse) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    parse(text);
  } catch (const af::InputError&) {
    // Rejected with a located message: the expected outcome for damaged input.
  }
  return 0;
}

}  // namespace af::fuzz
