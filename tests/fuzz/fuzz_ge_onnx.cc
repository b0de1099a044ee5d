// libFuzzer target: GE ge_onnx_*.pbtxt (ONNX ModelProto text) through ParseGeOnnx.
#include <cstddef>
#include <cstdint>

#include "autofuse/importers/ge_onnx.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return af::fuzz::RunParser(data, size, [](const std::string& text) {
    (void)af::importers::ge::ParseGeOnnx(text, "ge_onnx.pbtxt");
  });
}
