// afc: the autofuse command line. Parses arguments and dispatches to one subcommand; every error
// about input ends as a message naming file, line and cause on stderr and exit code 2.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "autofuse/support/error.h"
#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "afc — AutoFuse operator-fusion compiler: inspect, compile, tile and run fused "
      "kernels"};
  app.set_version_flag("--version", std::string("afc ") + AF_VERSION);
  app.require_subcommand(1);

  af::cli::InspectOptions inspect;
  auto* cmd_inspect = app.add_subcommand(
      "inspect", "Show what an input holds: graphs, symbols, axes, nodes by compute type");
  cmd_inspect
      ->add_option("INPUT", inspect.input,
                   "AscGraphDef text, GE graph text or readable "
                   "graph text")
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
  } catch (const af::InputError& e) {
    std::cerr << "afc: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "afc: internal error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
