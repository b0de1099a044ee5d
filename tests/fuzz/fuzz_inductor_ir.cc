// libFuzzer target: Inductor scheduler IR (ir_pre_fusion.txt / ir_post_fusion.txt) through
// ParseInductorIr.
#include <cstddef>
#include <cstdint>

#include "autofuse/importers/inductor_ir.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return af::fuzz::RunParser(data, size, [](const std::string& text) {
    (void)af::importers::inductor::ParseInductorIr(text, "ir_post_fusion.txt");
  });
}
