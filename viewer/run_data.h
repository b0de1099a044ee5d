// A run: one CompileReport the viewer holds open, with what produced it (input, hardware profile,
// size bindings, flags), the generated sources by kernel, and why it failed when it did. Runs are
// immutable once made; the run manager hands them out as shared pointers.
#pragma once

#include <QString>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "autofuse/sym/expr.h"

namespace af::report {
class CompileReport;
class KernelReport;
class CaseReport;
class FallbackReport;
}  // namespace af::report

namespace af::viewer {

// What to compile: the inputs of pipeline::Compile as the viewer collects them.
struct RunRequest {
  QString input;  // graph file (anything afc opens)
  std::string soc = "ascend910b";
  sym::Bindings bindings;
  std::map<std::string, std::string> flags;  // AutoFuse-style --key=value flags
  bool build = false;                        // also compile the kernels with the host compiler
  bool superkernel = false;  // model graphs: the super-kernel estimate (the Timeline tab)
};

struct SourceFile {
  QString name;  // file name, e.g. autofused_add_1234_kernel.cc
  QString text;
  bool missing = false;  // listed in the report but not found next to it
};

struct Run {
  int id = 0;           // 1-based, unique in this session
  int ticket = 0;       // the run manager's job that made it (0: added directly)
  QString title;        // what the navigator shows
  RunRequest request;   // what produced it (for a loaded report: what the report says)
  QString report_path;  // set when the run was read from a report.json
  QString debug_tree;   // the --codegen_compile_debug tree the run wrote, if any
  std::shared_ptr<const report::CompileReport> report;     // null when the run failed
  std::map<std::string, std::vector<SourceFile>> sources;  // by kernel name
  std::vector<std::string> origins;   // per kernel: file (and embedding op), when known
  QString error;                      // why the whole run failed (bad input, ...)
  std::shared_ptr<const Run> parent;  // the run this one re-ran, if any (for comparisons)
  double wall_ms = 0;                 // worker time
  // The input went through the fusion front end (FX graph, case folder): the report's fallbacks
  // are the ops it left unfused ("[CODE] message"); otherwise they are groups a framework fused
  // that we could not lower (Inductor fallbacks).
  bool frontend = false;

  bool ok() const { return report != nullptr; }
  int kernelCount() const;
  const report::KernelReport* kernel(int index) const;  // null when out of range
  // What the per-case panels (axes, templates, cost, the impl graph) show of kernel `index`: for
  // a multi-group kernel, whose own entry holds no cases, its group ShownGroup(k, group); else the
  // kernel itself. Null when out of range.
  const report::KernelReport* kernelView(int index, int group) const;
  // The kernel with this name; null when absent.
  const report::KernelReport* kernelNamed(const std::string& name) const;
  // The report's fallbacks: Inductor groups we could not lower, or ops the front end left unfused.
  int fallbackCount() const;
  const report::FallbackReport* fallback(int index) const;  // null when out of range
  // What the navigator calls them: "unfused ops" (front end) or "fallbacks".
  QString fallbackGroupName() const;
};

using RunPtr = std::shared_ptr<const Run>;

// "s0=37, s1=1031" (empty when nothing is bound).
QString BindingsText(const sym::Bindings& b);
// "--force_tiling_case=1;--k=v" in the syntax ParseFlags reads.
QString FlagsText(const std::map<std::string, std::string>& flags);

// The group the panels show of a multi-group kernel: `requested` when it names a group of k, else
// the first; -1 when k has no groups.
int ShownGroup(const report::KernelReport& k, int requested);

// The case the panels show when none is picked: the chosen one when the sizes are bound, else 0;
// -1 when the kernel has no cases.
int DefaultCase(const report::KernelReport& k);
// `requested` when it names a case of k, else DefaultCase(k).
int EffectiveCase(const report::KernelReport& k, int requested);
// Case name without the graph-name prefix: "add_bcast_relu_B0Y1" -> "B0Y1".
QString ShortCaseName(const report::KernelReport& k, int c);
// The hint graph's name (the graph the kernel was fused from).
QString GraphName(const report::KernelReport& k);
// Value bindings for a case: the report's size bindings plus the case's tile and tiles-per-block
// variables when it was solved.
sym::Bindings CaseBindings(const report::KernelReport& k, int c);

}  // namespace af::viewer
