// An ONNX model (IR version 8) of a CompileReport that Netron opens: the model graph with each
// fused kernel as a node calling a model-local function that holds its ops (domain "autofuse"),
// the ops left outside every kernel as plain nodes marked with their fallback code, and dtypes and
// (symbolic) shapes on the edges (graph inputs, outputs and value_info). For an AscGraph input
// (kernels already, no model graph) each kernel is a function of its AscIR nodes. Written with
// the ONNX field names and numbers (importers/ge/af_onnx.proto), as text or binary protobuf.
#pragma once

#include <string>

namespace af::report {
class CompileReport;
}

namespace af::exporters {

std::string OnnxModelText(const report::CompileReport& r);    // protobuf text (.onnxtxt)
std::string OnnxModelBinary(const report::CompileReport& r);  // binary protobuf (.onnx)

}  // namespace af::exporters
