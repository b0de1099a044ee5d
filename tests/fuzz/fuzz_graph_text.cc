// libFuzzer target: AscGraphDef text, GE GraphDef / ModelDef text and our readable text through
// ir::LoadGraphText.
#include <cstddef>
#include <cstdint>

#include "autofuse/ir/load.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return af::fuzz::RunParser(
      data, size, [](const std::string& text) { (void)af::ir::LoadGraphText(text, "graph.txt"); });
}
