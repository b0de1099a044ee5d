// AutoFuse's codegen_compile_debug dump tree for one compile, so users and tools that read
// AutoFuse's DFX folders (our own DFX importer among them) read ours:
//
//   <debug_dir>/autofuse_compile_debug/ascgen_dump_pid_<pid>/<fused_graph>/
//     ascgraph_<NNNNN>_<graph>_<stage>_<id>.txt   every stage's graph (AscGraphText)
//     ge_onnx_<NNNNN>_<graph>_<stage>.pbtxt       the fused graph as ONNX text
//     py_code_<graph>.py                          the hint graph as a pyautofuse script that
//                                                 also runs with numpy alone (py_code.h)
//     api_param_<NNNNN>_<impl graph>.txt          the AscendC calls per node and tiling case
//                                                 (api_param_dump.h)
//     build/                                      the generated sources that were compiled
//
// Written when --codegen_compile_debug=true (AUTOFUSE_DFX_FLAGS or --flags); --debug_dir names the
// root (default ./). Stage names are AutoFuse's where our stage matches one.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "autofuse/pipeline/pipeline.h"

namespace af::pipeline {

// The stages of one kernel in dump order: (AutoFuse-style stage name, graph).
std::vector<std::pair<std::string, ir::Graph>> DebugStages(const Kernel& k, const Options& o);

// A graph or kernel name as the file-name part it becomes in the tree (letters, digits, '_'
// and '-' kept, others '_', at most 120 characters, "graph" when empty).
std::string DumpFileStem(const std::string& name);

// One stage's graph in AutoFuse's DumpGraphText form (banner and VIEW 2: Graph Structure), the
// form our DFX importer reads (docs/formats.md).
std::string AscGraphText(const ir::Graph& g);

// The fused graph as ONNX ModelProto text (one node per AscIR node, dtypes and symbolic shapes on
// the graph's inputs and outputs).
std::string OnnxText(const ir::Graph& g);

// Writes the tree for every kernel of `r` when the flags ask for it; returns the
// ascgen_dump_pid_<pid> folder written, or "" when codegen_compile_debug is off.
// Throws af::InputError when the folder cannot be written.
std::string WriteDebugTree(const CompileResult& r, const Options& o);

}  // namespace af::pipeline
