// libFuzzer target: AutoFuse's ascgraph_*.txt dumps (DFX folders) through ParseAscGraphText, and
// the parsed graph through ir::Validate (what afc inspect does next).
#include <cstddef>
#include <cstdint>

#include "autofuse/importers/dfx_dump.h"
#include "autofuse/ir/validate.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return af::fuzz::RunParser(data, size, [](const std::string& text) {
    const auto t = af::importers::dfx::ParseAscGraphText(text, "ascgraph.txt");
    (void)af::ir::Validate(t.graph);
  });
}
