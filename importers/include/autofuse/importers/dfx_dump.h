// AutoFuse DFX dump folders (`AUTOFUSE_DFX_FLAGS="--codegen_compile_debug=true;--debug_dir=D"`):
// `D/autofuse_compile_debug/ascgen_dump_pid_<pid>/<fused graph>/` holds, per dump call (one
// 5-digit sequence number NNNNN, counted per fused graph),
// `ascgraph_NNNNN_<graph>_<stage>_<id>.txt` (AutoFuse's three-view text),
// `ge_onnx_NNNNN_<graph>_<stage>.pbtxt` (the ComputeGraph, read by ge_onnx.h) and once
// `py_code_<graph>.py` (a pyautofuse script).
//
// ParseAscGraphText reads VIEW 2 ("Graph Structure": Graph / Sizes / Axis / Nodes with their
// .axis, .loop_axis, .ir_attr.*, .x, .y / .y[i] views and memory placement) of one ascgraph text
// into our IR; VIEW 1 (loop execution) and VIEW 3 (memory layout) are skipped, as are unknown
// lines inside VIEW 2 (counted). The older single-view `DebugStr` form (no VIEW headers, nodes as
// `name: Type (idx)`) is read too. Errors are InputError "file:line: expected …, found …".
//
// DiscoverDfxDump finds the dump files at any level (debug_dir, autofuse_compile_debug,
// ascgen_dump_pid_*, a fused graph folder or one ascgraph file), groups them by folder and graph
// name and orders each graph's stages by sequence number.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "autofuse/ir/graph.h"

namespace af::importers::dfx {

// One ascgraph_*.txt as read.
struct AscGraphText {
  std::string file;
  std::string name;             // the `Graph:` line of VIEW 2
  bool three_views = false;     // VIEW headers present (DumpGraphText); false = legacy DebugStr
  ir::Graph graph;              // hint unless it has tile / block axes
  std::vector<int> node_lines;  // 1-based line of each node header
  int skipped_lines = 0;        // unknown lines / properties inside VIEW 2, tolerated
  std::string NodeLoc(int node) const;  // "file:line" of node i
};

// Does this text look like AutoFuse's three-view dump (VIEW headers in the first 4 KiB)? The
// legacy form is only recognised by its file name, ascgraph_<NNNNN>_….txt.
bool LooksLikeAscGraphText(std::string_view head);
// Throws af::InputError naming the file and line.
AscGraphText ParseAscGraphText(const std::string& text, const std::string& file);
AscGraphText LoadAscGraphTextFile(const std::filesystem::path& path);

// ---- folders

struct DfxStage {
  std::uint64_t seq = 0;  // NNNNN
  std::string stage;      // AfterDeserialize, 0_AfterDoTiling, _Subgraph_ ...
  std::string graph_id;   // trailing _<id> of the file name ("" when absent)
  std::filesystem::path ascgraph;
  std::filesystem::path ge_onnx;  // the ge_onnx file of the same dump call, if any
  bool subgraph = false;          // dumped as a subgraph (_Subgraph_ suffix)
};

struct DfxGraph {
  std::string folder;  // the fused graph folder, relative to the input ("." for the input itself)
  std::string name;    // the graph name (from the file's `Graph:` line, else the file name)
  std::vector<DfxStage> stages;  // by sequence number
  std::string Label() const;     // "folder/name" or "name"
};

struct DfxDump {
  std::filesystem::path input;
  std::vector<DfxGraph> graphs;                         // by folder, then first sequence number
  std::vector<std::filesystem::path> py_code;           // py_code_*.py files
  std::vector<std::filesystem::path> ge_onnx_unpaired;  // ge_onnx files with no ascgraph twin
  std::size_t folders = 0;                              // fused graph folders
};

// A folder with ascgraph_*.txt files below it (bounded walk), or one such file (by name, or by
// the VIEW headers of its head). Cheap; never throws.
bool IsDfxDumpInput(const std::string& path);
// Throws InputError when the input has no ascgraph file or the walk exceeds its bounds.
DfxDump DiscoverDfxDump(const std::filesystem::path& input);

// The file-name parts of `ascgraph_<NNNNN>_<rest>.txt` / `ge_onnx_<NNNNN>_<rest>.pbtxt`, or
// nullopt for other names.
struct DumpFileName {
  std::uint64_t seq = 0;
  std::string rest;  // <graph>_<stage>[_<id>] (without the extension)
};
std::optional<DumpFileName> ParseDumpFileName(std::string_view file_name, std::string_view prefix,
                                              std::string_view ext);

// The stage of a graph to compile: the last (highest sequence) non-subgraph stage whose text is
// a hint graph (no tile/block axes), i.e. the hint graph AutoFuse's own scheduler received, after
// its pre-processing (fp16 computed in fp32, merged axes). Earlier stages throw when damaged like
// any stage read. No text when there is none; `reason` then says why.
struct HintPick {
  std::optional<AscGraphText> text;
  const DfxStage* stage = nullptr;
  std::string reason;
};
HintPick PickHintStage(const DfxGraph& g);

}  // namespace af::importers::dfx
