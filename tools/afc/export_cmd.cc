// afc export INPUT --format dot|svg|png|onnx|onnxtxt|trace|repro --out PATH: compiles INPUT
// (without building the kernels), fills the CompileReport and hands it to one of the exporters/;
// repro writes one reproducer folder per compiled kernel under PATH.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "autofuse/exporters/dot.h"
#include "autofuse/exporters/onnx_export.h"
#include "autofuse/exporters/render.h"
#include "autofuse/exporters/repro.h"
#include "autofuse/exporters/trace.h"
#include "autofuse/hw/profile.h"
#include "autofuse/inputs/registry.h"
#include "autofuse/pipeline/options.h"
#include "autofuse/support/error.h"
#include "autofuse/support/file_write.h"
#include "commands.h"
#include "report.pb.h"

namespace af::cli {

int RunExport(const ExportOptions& opts) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (opts.format != "repro") {
    if (fs::exists(opts.out, ec) && !opts.force) {
      throw InputError({opts.out, 0, 0}, "exists; not overwriting it (use --force)");
    }
    if (fs::is_directory(opts.out, ec)) throw InputError({opts.out, 0, 0}, "is a directory");
  }
  pipeline::Options o;
  o.soc = opts.common.soc;
  (void)hw::GetProfile(o.soc);
  ReadFlags(opts.common, &o.flags);
  pipeline::ParseBindings(opts.common.bind, &o.bindings);
  o.build = false;  // the exports need the report, not the built kernels
  const auto r = inputs::CompileFile(opts.common.input, o);
  if (opts.format == "repro") {  // one stand-alone folder per compiled kernel
    int written = 0;
    for (const auto& k : r.kernels) {
      if (!k.error.empty()) {
        std::cerr << "afc: note: kernel '" << k.hint.name << "' not compiled [" << k.error_code
                  << "]: no reproducer\n";
        continue;
      }
      const fs::path dir = fs::path(opts.out) / k.code.kernel_name;
      exporters::WriteRepro(k, o, dir);
      std::cout << "repro -> " << dir.string() << "\n";
      ++written;
    }
    if (written == 0) throw InputError({opts.common.input, 0, 0}, "no kernel was compiled");
    return 0;
  }
  report::CompileReport rep;
  inputs::FillReport(r, o, &rep);
  std::string text;
  const std::string& f = opts.format;
  if (f == "dot" || f == "svg" || f == "png") {
    exporters::DotGraph which =
        rep.model_nodes_size() > 0 ? exporters::DotGraph::kModel : exporters::DotGraph::kHint;
    if (opts.graph == "hint") which = exporters::DotGraph::kHint;
    if (opts.graph == "impl") which = exporters::DotGraph::kImpl;
    if (opts.graph == "model") which = exporters::DotGraph::kModel;
    text = exporters::ReportDot(rep, which);
    if (f != "dot") text = exporters::RenderDot(text, f);
  } else if (f == "onnx") {
    text = exporters::OnnxModelBinary(rep);
  } else if (f == "onnxtxt") {
    text = exporters::OnnxModelText(rep);
  } else if (f == "trace") {
    text = exporters::TraceJson(rep);
  } else {
    throw InputError(
        {}, "--format must be dot, svg, png, onnx, onnxtxt, trace or repro, not '" + f + "'");
  }
  WriteFileReplacing(opts.out, text);  // temporary file + rename: never half-written
  std::cout << f << " -> " << opts.out << " (" << text.size() << " bytes)\n";
  return 0;
}

}  // namespace af::cli
