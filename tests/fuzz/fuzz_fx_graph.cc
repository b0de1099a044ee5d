// libFuzzer target: FX graph dumps (fx_graph_readable.py and friends) through ParseFxGraph.
#include <cstddef>
#include <cstdint>

#include "autofuse/importers/fx_graph.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return af::fuzz::RunParser(data, size, [](const std::string& text) {
    (void)af::importers::ParseFxGraph(text, "fuzz.py");
  });
}
