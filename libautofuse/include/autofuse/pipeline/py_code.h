// py_code_<graph>.py of the codegen_compile_debug tree: the fused graph's hint graph as a Python
// script in AutoFuse's pyautofuse form (ascir.HintGraph, ascir.ops.<Type>, attr.sched.axis,
// y.dtype/axis/size/strides, attr.ir_attr.*), ending as AutoFuse's does with Autofuser's
// schedule and codegen when pyautofuse is installed. Without pyautofuse (python3 and numpy
// alone) the same script runs the graph on host arrays with the reference interpreter's
// semantics (interp/interpreter.h), so a user can compare a kernel's results:
//
//   python3 py_code_<graph>.py [--bind s0=N,...] [--inputs DIR] [--expect DIR] [--out DIR]
//
// (inputs DIR/in<k>.npy by Data index, expectations DIR/out<k>.npy by Output index, as `afc run`
// takes them for AscGraph files). Our asc_graph.py reader reads the script back.
#pragma once

#include <string>

#include "autofuse/ir/graph.h"
#include "autofuse/sym/expr.h"

namespace af::pipeline {

// The script for hint graph `g`; `bindings` become the sizes used when --bind leaves one out.
// Names from the graph reach the script only as sanitised identifiers or quoted strings.
std::string PyCode(const ir::Graph& g, const sym::Bindings& bindings);

}  // namespace af::pipeline
