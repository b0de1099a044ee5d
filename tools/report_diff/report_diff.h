// Comparing two CompileReports, kernel by kernel: what `afc diff` prints and the viewer's Compare
// Runs table shows (both call this; neither compares on its own). Kernels are matched by the hint
// graph they were fused from (the n-th kernel of a graph name in A with the n-th in B); each side
// carries its chosen (or default) tiling case with its template, block_dim, UB bytes, modelled
// cycles and per-pipe cycles. Front-end runs also compare the fusion decider's decisions, matched
// by the pair of groups they are about. Qt-free: it depends on the report protobuf only.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace af::report {
class CompileReport;
class KernelReport;
}  // namespace af::report

namespace af::reportdiff {

// The case the viewer's panels show when none is picked: the chosen one when the sizes are bound,
// else 0; -1 when the kernel has no cases.
int DefaultCase(const report::KernelReport& k);
// The hint graph's name (the graph the kernel was fused from).
std::string GraphName(const report::KernelReport& k);
// Case name without the graph-name prefix: "add_bcast_relu_B0Y1" -> "B0Y1".
std::string ShortCaseName(const report::KernelReport& k, int c);

inline constexpr std::array<const char*, 4> kPipeNames = {"MTE2", "MTE3", "VEC", "SCALAR"};

struct KernelSide {
  bool present = false;
  bool tiled = false;         // the sizes were bound and a case chosen
  std::string name;           // the kernel's name
  std::string refused;        // error code when a stage refused the kernel
  std::string case_name;      // short name of the chosen (or default) case
  std::string template_name;  // of that case
  std::int64_t block_dim = 0;
  std::int64_t ub_bytes = 0;
  double cycles = 0;
  std::array<double, 4> pipes = {0, 0, 0, 0};  // MTE2, MTE3, VEC, SCALAR cycles, chosen case
};

struct KernelDiff {
  std::string graph;  // hint graph name ("name #2" for the second kernel of that graph)
  KernelSide a, b;
  // What differs, one word each: "only in A", "only in B", "refused", "case", "template",
  // "block_dim", "ub_bytes", "cycles", "pipes". Empty when the kernel is the same in both.
  std::vector<std::string> Changes() const;
  bool changed() const { return !Changes().empty(); }
};

// One pair of groups the front end decided about in either report.
struct DecisionDiff {
  std::string kind;                // vertical, horizontal
  std::vector<std::string> first;  // model node names
  std::vector<std::string> second;
  std::string a;  // "FUSED", "refused CODE (stage)" (several rounds joined by "; "), "" if absent
  std::string b;
};

struct ReportDiff {
  std::vector<KernelDiff> kernels;      // every kernel of A, then those only B has
  std::vector<DecisionDiff> decisions;  // only the decisions whose outcome changed
  int changedKernels() const;
  bool identical() const { return changedKernels() == 0 && decisions.empty(); }
};

KernelSide Side(const report::KernelReport& k);
std::vector<KernelDiff> DiffKernels(const report::CompileReport& a, const report::CompileReport& b);
std::vector<DecisionDiff> DiffDecisions(const report::CompileReport& a,
                                        const report::CompileReport& b);
ReportDiff Diff(const report::CompileReport& a, const report::CompileReport& b);

}  // namespace af::reportdiff
