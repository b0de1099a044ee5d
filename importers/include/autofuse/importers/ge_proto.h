// GE `ge_proto_*.txt` dumps (ModelDef text, or a bare GraphDef as AutoFuse writes it) read op by op
// with the streaming text reader, so a dump of hundreds of MB never becomes one protobuf message:
// each `op { ... }` is parsed alone (TextFormat, af.proto.OpDef) and only its summary (name, type,
// inputs) and its embedded `ascgraph` AscGraph are kept. Same result as ir::LoadGraphFile on these
// files (tests/importers/ge_onnx_test.cc checks it on the fixtures); errors are file:line.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "autofuse/importers/ge_onnx.h"
#include "autofuse/ir/load.h"

namespace af::importers::ge {

// True when the first field of `head` (the file's first KiB) is `graph` or `op` (GE text).
bool LooksLikeGeProto(std::string_view head);
ir::LoadedFile LoadGeProtoFile(const std::filesystem::path& path);
ir::LoadedFile ParseGeProto(const std::string& text, const std::string& file);

// The same dump as GE graphs in the ONNX reader's node form (ge_onnx.h) with every op's
// attributes, tensor descriptions, Const values and subgraph names, for the model graph
// (ge_model.h); streamed op by op as well. Graph [0] is the root graph.
GeOnnxModel LoadGeProtoModel(const std::filesystem::path& path);
GeOnnxModel ParseGeProtoModel(const std::string& text, const std::string& file);

}  // namespace af::importers::ge
