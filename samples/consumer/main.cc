// af_consumer: uses the installed library through its public headers. Loads a hint graph file,
// prints each graph's node count, compiles it through the input registry and the pipeline (without
// building the kernels), and simplifies a size expression the way the tiling does.
#include <exception>
#include <iostream>

#include "autofuse/inputs/registry.h"
#include "autofuse/ir/load.h"
#include "autofuse/pipeline/pipeline.h"
#include "autofuse/sym/expr.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: af_consumer HINT_GRAPH_FILE\n";
    return 2;
  }
  try {
    const af::ir::LoadedFile file = af::ir::LoadGraphFile(argv[1]);
    std::cout << "format: " << af::ir::FileFormatName(file.format) << "\n";
    for (const af::ir::LoadedGraph& g : file.graphs)
      std::cout << "graph " << g.graph.name << ": " << g.graph.nodes.size() << " nodes\n";

    af::pipeline::Options options;
    options.build = false;
    const af::pipeline::CompileResult result = af::inputs::CompileFile(argv[1], options);
    for (const af::pipeline::Kernel& k : result.kernels)
      std::cout << "kernel " << k.code.kernel_name << ": " << k.code.files.size()
                << " generated files\n";

    const af::sym::Expr tiles = af::sym::Parse("CeilDiv(s0 * s1, 256) * 256 - s0 * s1 + s0 * s1");
    std::cout << "expression: " << tiles.ToString() << "\n";
    return result.kernels.empty() ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "af_consumer: " << e.what() << "\n";
    return 1;
  }
}
