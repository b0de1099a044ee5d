// torch_compile_debug discovery by content: given any level of a dump (the torch_compile_debug
// root, a run_* folder however renamed, torchinductor/ or 2.0's aot_torchinductor/, a model folder
// in any naming scheme, or one file) it finds the folders holding Inductor dump files, classifies
// each file by name and, failing that, by content, and reads the torch version from
// fx_graph_runnable.py (else sniffs it from the IR's printed forms). Missing files are normal.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace af::importers::inductor {

enum class DumpFileKind {
  kIrPreFusion,    // ir_pre_fusion.txt (also *.log_artifact.txt forms)
  kIrPostFusion,   // ir_post_fusion.txt
  kIrText,         // other text with scheduler-node dumps (inductor_npu_ext logs, excerpts)
  kOutputCode,     // output_code.py
  kFxReadable,     // fx_graph_readable.py
  kFxTransformed,  // fx_graph_transformed.py
  kFxRunnable,     // fx_graph_runnable.py
  kFxOther,        // another file holding an FX graph
  kAscGraphPy,     // inductor_npu_ext autofused_*/asc_graph.py
  kNpuExtLog,      // a log with inductor_npu_ext `Lowered …` / `Fallback … # reason:` lines
};
std::string_view DumpFileKindName(DumpFileKind k);

struct DumpFile {
  std::filesystem::path path;
  DumpFileKind kind = DumpFileKind::kIrText;
};

// One folder holding dump files (normally a model folder such as model__0_forward_1.0).
struct ModelDir {
  std::filesystem::path dir;
  std::string name;           // folder name
  std::string model;          // "model", "gernet_l" (before the "__")
  std::string graph;          // forward / backward / inference when the name says so
  std::string torch_version;  // from this folder's fx_graph_runnable.py, "" when it has none
  std::vector<DumpFile> files;
  std::vector<std::filesystem::path> autofused_dirs;  // inductor_npu_ext kernels
  const DumpFile* Find(DumpFileKind k) const;
};

struct DebugTree {
  std::filesystem::path input;
  std::string layout;          // torch_compile_debug root, run folder, ... single file
  std::string torch_version;   // "2.5.1+cu124" (the first folder's), or a guess such as ">=2.6"
  std::string version_source;  // "fx_graph_runnable.py" or "sniffed from <file>" or ""
  std::vector<ModelDir> models;
  int FileCount(DumpFileKind k) const;
};

// Classifies one file by its name, else its first megabyte; false when it is no Inductor dump.
bool ClassifyDumpFile(const std::filesystem::path& p, DumpFileKind* kind);

// Throws InputError when `input` does not exist or holds no Inductor dump file at all.
DebugTree DiscoverDebugDump(const std::filesystem::path& input);

// "# torch version: 2.5.1+cu124" from an fx_graph_runnable.py text; "" when absent.
std::string TorchVersionFromRunnable(std::string_view text);

}  // namespace af::importers::inductor
