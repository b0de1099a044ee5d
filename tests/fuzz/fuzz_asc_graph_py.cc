// libFuzzer target: inductor_npu_ext asc_graph.py through ParseAscGraphPy.
#include <cstddef>
#include <cstdint>

#include "autofuse/importers/asc_graph_py.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return af::fuzz::RunParser(data, size, [](const std::string& text) {
    (void)af::importers::inductor::ParseAscGraphPy(text, "asc_graph.py");
  });
}
