// libFuzzer target: Inductor output_code.py through ParseOutputCode.
#include <cstddef>
#include <cstdint>

#include "autofuse/importers/output_code.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return af::fuzz::RunParser(data, size, [](const std::string& text) {
    (void)af::importers::inductor::ParseOutputCode(text, "output_code.py");
  });
}
