// Inductor's generated wrapper `output_code.py` read as text (never run): the kernels it defines
// (`name = async_compile.triton(...)` / `.cpp(...)` / `.cpp_pybinding(...)` / …, torch 2.0–2.9,
// and inductor_npu_ext's `name = async_compile_ascendc(..., name_artifacts)`), each with its source
// nodes and original aten ops from the comments above it, the `*_artifacts` blocks, and the calls
// to extern kernels in `call()`.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace af::importers::inductor {

struct OutputKernel {
  std::string name;     // triton_poi_fused_add_0, cpp_fused_relu_1, autofused_add_sum_<md5>
  std::string backend;  // triton, cpp, cpp_pybinding, ascendc, … (the async_compile method)
  int line = 0;
  std::string kernel_path;                       // "# kernel path: …" (2.1+)
  std::vector<std::string> source_nodes;         // FX node names ([add, sum_1])
  std::vector<std::string> aten_ops;             // aten.add, aten.sum
  std::vector<std::string> graph_fragment;       // "# Graph fragment:" lines (2.5+)
  std::map<std::string, std::string> artifacts;  // inductor_npu_ext: tiling_def, host_impl, …
  std::size_t source_bytes = 0;                  // size of the kernel source string
};

struct OutputCode {
  std::string file;
  std::string aot_id;  // "# AOT ID: ['0_inference']" (2.5+)
  std::vector<OutputKernel> kernels;
  std::map<std::string, int> extern_calls;  // extern_kernels.mm x2, torch.ops.aten.… in call()
  int kernel_launches = 0;                  // <kernel>.run(...) / <kernel>(...) calls in call()
};

// True when the text is an Inductor wrapper module (imports AsyncCompile / defines call(args)).
bool LooksLikeOutputCode(std::string_view text);
// Throws InputError (file:line) on an unterminated kernel source string.
OutputCode ParseOutputCode(const std::string& text, const std::string& file);
OutputCode LoadOutputCodeFile(const std::filesystem::path& path);

}  // namespace af::importers::inductor
