// libFuzzer target: AscGraphDef text, GE GraphDef / ModelDef text and our readable text through
// ir::LoadGraphText, and GE ModelDef / GraphDef text through the streamed importers::ge reader.
#include <cstddef>
#include <cstdint>

#include "autofuse/importers/ge_proto.h"
#include "autofuse/ir/load.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  af::fuzz::RunParser(
      data, size, [](const std::string& text) { (void)af::ir::LoadGraphText(text, "graph.txt"); });
  return af::fuzz::RunParser(data, size, [](const std::string& text) {
    if (af::importers::ge::LooksLikeGeProto(text.substr(0, 4096)))
      (void)af::importers::ge::ParseGeProto(text, "graph.txt");
  });
}
