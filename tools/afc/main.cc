// afc: the autofuse command line. Parses arguments and dispatches to one subcommand; every error
// about input ends as a message naming file, line and cause on stderr and exit code 2.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "autofuse/pipeline/flag_table.h"
#include "autofuse/support/error.h"
#include "autofuse/toolchain/compile.h"
#include "commands.h"
#include "graph_cmds.h"

int main(int argc, char** argv) {
  CLI::App app{
      "afc — AutoFuse operator-fusion compiler: inspect, compile, tile and run fused "
      "kernels"};
  app.set_version_flag("--version", std::string("afc ") + AF_VERSION);
  app.require_subcommand(1);
  app.add_flag_callback(
      "--help-flags",
      [] {
        std::cout << af::pipeline::FlagHelpText();
        throw CLI::Success();
      },
      "List every AutoFuse flag (--flags, AUTOFUSE_FLAGS, AUTOFUSE_DFX_FLAGS) and exit");
  app.add_flag_callback(
      "--help-flags-markdown",
      [] {
        std::cout << af::pipeline::FlagMarkdown();
        throw CLI::Success();
      },
      "The flag table as Markdown (the section of docs/cli.md) and exit");

  af::cli::InspectOptions inspect;
  auto* cmd_inspect = app.add_subcommand(
      "inspect", "Show what an input holds: graphs, symbols, axes, nodes by compute type");
  cmd_inspect
      ->add_option("INPUT", inspect.input,
                   "AscGraphDef text, GE graph text (ge_proto) or ge_onnx pbtxt, readable graph "
                   "text, aten FX graph, Inductor IR / output_code.py / asc_graph.py, or a "
                   "torch_compile_debug folder at any level")
      ->required();
  cmd_inspect->add_flag("--json", inspect.json, "Machine-readable output on stdout");

  af::cli::ConvertOptions convert;
  auto* cmd_convert = app.add_subcommand(
      "convert", "Write one AscGraph in another file form (readable text or AscGraphDef text)");
  cmd_convert->add_option("INPUT", convert.input, "Graph file")->required();
  cmd_convert->add_option("--to", convert.to, "Target form: text | ascgraph")
      ->check(CLI::IsMember({"text", "ascgraph"}));
  cmd_convert->add_option("-o,--out", convert.output, "Output file (default: stdout)");
  cmd_convert->add_flag("--force", convert.force, "Overwrite an existing output file");

  auto add_common = [](CLI::App* cmd, af::cli::CommonOptions& c) {
    cmd->add_option("INPUT", c.input,
                    "AscGraph (AscGraphDef text, GE graph, readable text), an aten FX graph or "
                    "case folder, or Inductor's fused groups (ir_post_fusion.txt or a "
                    "torch_compile_debug folder)")
        ->required();
    cmd->add_option("--bind", c.bind, "Bind size symbols, e.g. s0=128,s1=64");
    cmd->add_option("--flags", c.flags, "AutoFuse-style flags: \"--key=value;--key2=value\"");
    cmd->add_option("--soc", c.soc, "Hardware profile: ascend910b | ascend910_93 | ascend950");
    cmd->add_flag("--json", c.json, "Machine-readable output on stdout");
    cmd->add_flag("--strict", c.strict,
                  "Exit 2 on a flag warning (unknown name, bad value) instead of using the "
                  "default");
  };
  af::cli::CompileOptions compile;
  auto* cmd_compile = app.add_subcommand(
      "compile", "Run the pipeline and write the generated sources and report.json into --out");
  add_common(cmd_compile, compile.common);
  cmd_compile->add_option("--out", compile.out, "Output directory")->required();
  cmd_compile->add_flag("--timings", compile.timings, "Per-stage timings");
  cmd_compile->add_flag("--force", compile.force, "Write into a non-empty directory");
  cmd_compile->add_flag("--no-build", compile.no_build,
                        "Generate the sources and the report only: no host compile of the kernels");

  af::cli::RunCmdOptions runo;
  auto* cmd_run = app.add_subcommand(
      "run", "Compile, build against the CPU runtime, run and compare; ends with PASS or FAIL");
  add_common(cmd_run, runo.common);
  cmd_run->add_option("--inputs", runo.inputs, "Directory with in0.npy, in1.npy, ...");
  cmd_run->add_option("--expect", runo.expect,
                      "Directory with out0.npy, ... (default: the reference interpreter)");
  cmd_run->add_option("--seed", runo.seed, "Seed of the random inputs");
  cmd_run->add_option("--atol", runo.atol, "Absolute tolerance (default: by dtype)");
  cmd_run->add_option("--rtol", runo.rtol, "Relative tolerance (default: by dtype)");

  af::cli::TileOptions tile;
  auto* cmd_tile = app.add_subcommand("tile", "The tiling decision per kernel for bound sizes");
  add_common(cmd_tile, tile.common);
  cmd_tile->add_option("--solver", tile.solver, "default | heuristic | exhaustive");

  af::cli::ExportOptions exp;
  auto* cmd_export = app.add_subcommand(
      "export",
      "Write a compile's graphs, model or timeline for other tools: Graphviz dot/svg/png, ONNX "
      "(binary onnx, text onnxtxt) for Netron, a Chrome/Perfetto trace, reproducer folders");
  add_common(cmd_export, exp.common);
  cmd_export->add_option("--format", exp.format, "dot | svg | png | onnx | onnxtxt | trace | repro")
      ->required()
      ->check(CLI::IsMember({"dot", "svg", "png", "onnx", "onnxtxt", "trace", "repro"}));
  cmd_export->add_option("--out", exp.out, "Output file (repro: a folder)")->required();
  cmd_export->add_option("--graph", exp.graph, "dot/svg/png: model | hint | impl")
      ->check(CLI::IsMember({"model", "hint", "impl"}));
  cmd_export->add_flag("--force", exp.force, "Overwrite an existing output file");

  af::cli::OptOptions opt;
  auto* cmd_opt = app.add_subcommand(
      "opt",
      "Run pipeline stages by hand, text in and text out (a golden test's '# RUN:' lines by "
      "default)");
  cmd_opt
      ->add_option("INPUT", opt.input, "Hint graph (readable text, AscGraphDef, ...) or FX graph")
      ->required();
  cmd_opt->add_option("--stage", opt.stages,
                      "Stage and arguments, e.g. normalize, schedule, codegen, \"tile --bind "
                      "s0=37,s1=1031\"; model graphs: lower, check, \"fuse FLAGS\" (repeatable)");

  af::cli::EstimateOptions estimate;
  auto* cmd_estimate = app.add_subcommand(
      "estimate", "Modeled time of the fused kernels against the same ops one per kernel");
  add_common(cmd_estimate, estimate.common);

  af::cli::DiffOptions diff;
  auto* cmd_diff = app.add_subcommand(
      "diff",
      "Compare two CompileReports per kernel (case, block_dim, UB, cycles, pipes) and their "
      "fusion decisions; exit 0 when identical, 1 when they differ");
  cmd_diff->add_option("REPORT_A", diff.a, "report.json, or the folder afc compile --out wrote")
      ->required();
  cmd_diff->add_option("REPORT_B", diff.b, "report.json, or the folder afc compile --out wrote")
      ->required();
  cmd_diff->add_flag("--json", diff.json, "Machine-readable output on stdout");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  try {
    if (cmd_inspect->parsed()) return af::cli::RunInspect(inspect);
    if (cmd_convert->parsed()) return af::cli::RunConvert(convert);
    if (cmd_compile->parsed()) return af::cli::RunCompile(compile);
    if (cmd_estimate->parsed()) return af::cli::RunEstimate(estimate);
    if (cmd_run->parsed()) return af::cli::RunRun(runo);
    if (cmd_tile->parsed()) return af::cli::RunTile(tile);
    if (cmd_opt->parsed()) return af::cli::RunOpt(opt);
    if (cmd_diff->parsed()) return af::cli::RunDiff(diff);
    if (cmd_export->parsed()) return af::cli::RunExport(exp);
  } catch (const af::InputError& e) {
    std::cerr << "afc: " << e.what() << "\n";
    return 2;
  } catch (const af::toolchain::ToolchainError& e) {
    // The host compiler or the kernel cache (killed compiler, unwritable cache): not our bug.
    std::cerr << "afc: host toolchain: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "afc: internal error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
