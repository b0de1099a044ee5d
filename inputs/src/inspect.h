// `afc inspect` per format: what an input holds, as text or JSON on stdout. The input registry
// (registry.cc) names one of these for each format; each returns afc's exit code.
#pragma once

#include <string>

#include "autofuse/inputs/probe.h"

namespace af::inputs {

struct InspectOptions {
  std::string input;
  bool json = false;
};

int InspectDfxDump(const Probe& probe, bool as_json);       // AutoFuse DFX dumps
int InspectDebugDump(const Probe& probe, bool as_json);     // torch_compile_debug, case folders
int InspectFxGraph(const Probe& probe, bool as_json);       // aten FX graphs
int InspectInductorIr(const Probe& probe, bool as_json);    // ir_pre/post_fusion.txt
int InspectAscGraphPy(const Probe& probe, bool as_json);    // inductor_npu_ext asc_graph.py
int InspectOutputCode(const Probe& probe, bool as_json);    // output_code.py
int InspectGeOnnx(const Probe& probe, bool as_json);        // ge_onnx_*.pbtxt
int InspectAscGraphFile(const Probe& probe, bool as_json);  // AscGraphDef, GE graph, readable

}  // namespace af::inputs
