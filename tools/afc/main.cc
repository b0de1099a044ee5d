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

namespace {

// Every subcommand's options and its CLI11 handle: filled by the Add* steps, read by Dispatch.
struct Commands {
  af::cli::InspectOptions inspect;
  af::cli::ConvertOptions convert;
  af::cli::CompileOptions compile;
  af::cli::RunCmdOptions runo;
  af::cli::TileOptions tile;
  af::cli::ExportOptions exp;
  af::cli::OptOptions opt;
  af::cli::EstimateOptions estimate;
  af::cli::DiffOptions diff;
  af::cli::OpsOptions ops;
  CLI::App* cmd_inspect = nullptr;
  CLI::App* cmd_convert = nullptr;
  CLI::App* cmd_compile = nullptr;
  CLI::App* cmd_run = nullptr;
  CLI::App* cmd_tile = nullptr;
  CLI::App* cmd_export = nullptr;
  CLI::App* cmd_opt = nullptr;
  CLI::App* cmd_estimate = nullptr;
  CLI::App* cmd_diff = nullptr;
  CLI::App* cmd_ops = nullptr;
};

void AddHelpFlags(CLI::App& app) {
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
}

// The subcommands on one graph or report, outside the pipeline: inspect, convert, opt, diff.
void AddGraphCommands(CLI::App& app, Commands& c) {
  c.cmd_inspect = app.add_subcommand(
      "inspect", "Show what an input holds: graphs, symbols, axes, nodes by compute type");
  c.cmd_inspect
      ->add_option("INPUT", c.inspect.input,
                   "AscGraphDef text, GE graph text (ge_proto) or ge_onnx pbtxt, readable graph "
                   "text, aten FX graph, Inductor IR / output_code.py / asc_graph.py, or a "
                   "torch_compile_debug folder at any level")
      ->required();
  c.cmd_inspect->add_flag("--json", c.inspect.json, "Machine-readable output on stdout");

  c.cmd_convert = app.add_subcommand(
      "convert", "Write one AscGraph in another file form (readable text or AscGraphDef text)");
  c.cmd_convert->add_option("INPUT", c.convert.input, "Graph file")->required();
  c.cmd_convert->add_option("--to", c.convert.to, "Target form: text | ascgraph")
      ->check(CLI::IsMember({"text", "ascgraph"}));
  c.cmd_convert->add_option("-o,--out", c.convert.output, "Output file (default: stdout)");
  c.cmd_convert->add_flag("--force", c.convert.force, "Overwrite an existing output file");

  c.cmd_opt = app.add_subcommand(
      "opt",
      "Run pipeline stages by hand, text in and text out (a golden test's '# RUN:' lines by "
      "default)");
  c.cmd_opt
      ->add_option("INPUT", c.opt.input, "Hint graph (readable text, AscGraphDef, ...) or FX graph")
      ->required();
  c.cmd_opt->add_option("--stage", c.opt.stages,
                        "Stage and arguments, e.g. normalize, schedule, codegen, \"tile --bind "
                        "s0=37,s1=1031\"; model graphs: lower, check, \"fuse FLAGS\" (repeatable)");

  c.cmd_diff = app.add_subcommand(
      "diff",
      "Compare two CompileReports per kernel (case, block_dim, UB, cycles, pipes) and their "
      "fusion decisions; exit 0 when identical, 1 when they differ");
  c.cmd_diff->add_option("REPORT_A", c.diff.a, "report.json, or the folder afc compile --out wrote")
      ->required();
  c.cmd_diff->add_option("REPORT_B", c.diff.b, "report.json, or the folder afc compile --out wrote")
      ->required();
  c.cmd_diff->add_flag("--json", c.diff.json, "Machine-readable output on stdout");
}

// Options every pipeline subcommand shares.
void AddCommon(CLI::App* cmd, af::cli::CommonOptions& c) {
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
}

// The subcommands that run the pipeline: compile, run, tile, export, estimate.
void AddPipelineCommands(CLI::App& app, Commands& c) {
  c.cmd_compile = app.add_subcommand(
      "compile", "Run the pipeline and write the generated sources and report.json into --out");
  AddCommon(c.cmd_compile, c.compile.common);
  c.cmd_compile->add_option("--out", c.compile.out, "Output directory")->required();
  c.cmd_compile->add_flag("--timings", c.compile.timings, "Per-stage timings");
  c.cmd_compile->add_flag("--force", c.compile.force, "Write into a non-empty directory");
  c.cmd_compile->add_flag(
      "--no-build", c.compile.no_build,
      "Generate the sources and the report only: no host compile of the kernels");
  c.cmd_compile->add_flag("--superkernel", c.compile.superkernel,
                          "Model graphs: also write the super-kernel estimate (separate vs super "
                          "kernels, as afc estimate --superkernel) into report.json");

  c.cmd_run = app.add_subcommand(
      "run", "Compile, build against the CPU runtime, run and compare; ends with PASS or FAIL");
  AddCommon(c.cmd_run, c.runo.common);
  c.cmd_run->add_option("--inputs", c.runo.inputs, "Directory with in0.npy, in1.npy, ...");
  c.cmd_run->add_option("--expect", c.runo.expect,
                        "Directory with out0.npy, ... (default: the reference interpreter)");
  c.cmd_run->add_option("--seed", c.runo.seed, "Seed of the random inputs");
  c.cmd_run->add_option("--atol", c.runo.atol, "Absolute tolerance (default: by dtype)");
  c.cmd_run->add_option("--rtol", c.runo.rtol, "Relative tolerance (default: by dtype)");
  c.cmd_run->add_flag("--superkernel", c.runo.superkernel,
                      "Model graphs: run again with each run of consecutive kernels as one "
                      "launch (super kernel) and check it against the separate kernels");

  c.cmd_tile = app.add_subcommand("tile", "The tiling decision per kernel for bound sizes");
  AddCommon(c.cmd_tile, c.tile.common);
  c.cmd_tile->add_option("--solver", c.tile.solver, "default | heuristic | exhaustive");

  c.cmd_export = app.add_subcommand(
      "export",
      "Write a compile's graphs, model or timeline for other tools: Graphviz dot/svg/png, ONNX "
      "(binary onnx, text onnxtxt) for Netron, a Chrome/Perfetto trace, reproducer folders");
  AddCommon(c.cmd_export, c.exp.common);
  c.cmd_export
      ->add_option("--format", c.exp.format, "dot | svg | png | onnx | onnxtxt | trace | repro")
      ->required()
      ->check(CLI::IsMember({"dot", "svg", "png", "onnx", "onnxtxt", "trace", "repro"}));
  c.cmd_export->add_option("--out", c.exp.out, "Output file (repro: a folder)")->required();
  c.cmd_export->add_option("--graph", c.exp.graph, "dot/svg/png: model | hint | impl")
      ->check(CLI::IsMember({"model", "hint", "impl"}));
  c.cmd_export->add_flag("--force", c.exp.force, "Overwrite an existing output file");

  c.cmd_estimate = app.add_subcommand(
      "estimate", "Modeled time of the fused kernels against the same ops one per kernel");
  AddCommon(c.cmd_estimate, c.estimate.common);
  c.cmd_estimate->add_flag("--superkernel", c.estimate.superkernel,
                           "Separate kernels against super kernels (one launch per run of "
                           "consecutive kernels), per graph");
  c.cmd_estimate->add_option("--trace", c.estimate.trace,
                             "With --superkernel: write the two modelled timelines as a Chrome "
                             "trace (JSON) to this file");

  c.cmd_ops = app.add_subcommand(
      "ops", "The registered AscIR ops for a profile: inputs, outputs, dtypes, support");
  c.cmd_ops->add_option("--soc", c.ops.soc,
                        "Hardware profile: ascend910b | ascend910_93 | ascend950");
  c.cmd_ops->add_flag("--json", c.ops.json, "Machine-readable output on stdout");
}

// Runs the parsed subcommand; every error about input is exit code 2 with a message.
int Dispatch(const Commands& c) {
  try {
    if (c.cmd_inspect->parsed()) return af::cli::RunInspect(c.inspect);
    if (c.cmd_convert->parsed()) return af::cli::RunConvert(c.convert);
    if (c.cmd_compile->parsed()) return af::cli::RunCompile(c.compile);
    if (c.cmd_estimate->parsed()) return af::cli::RunEstimate(c.estimate);
    if (c.cmd_run->parsed()) return af::cli::RunRun(c.runo);
    if (c.cmd_tile->parsed()) return af::cli::RunTile(c.tile);
    if (c.cmd_opt->parsed()) return af::cli::RunOpt(c.opt);
    if (c.cmd_diff->parsed()) return af::cli::RunDiff(c.diff);
    if (c.cmd_export->parsed()) return af::cli::RunExport(c.exp);
    if (c.cmd_ops->parsed()) return af::cli::RunOps(c.ops);
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "afc — AutoFuse operator-fusion compiler: inspect, compile, tile and run fused "
      "kernels"};
  app.set_version_flag("--version", std::string("afc ") + AF_VERSION);
  app.require_subcommand(1);
  AddHelpFlags(app);
  Commands commands;
  AddGraphCommands(app, commands);
  AddPipelineCommands(app, commands);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return Dispatch(commands);
}
