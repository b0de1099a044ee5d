// afc ops: every registered AscIR op with its inputs, outputs, attributes, compute type and
// dtypes, and what the chosen profile makes of it: supported (AutoFuse's back-end for the profile
// registers it and codegen lowers it), compiled with a decision (AutoFuse's back-end lacks it:
// AUTOFUSE_V1_UNREGISTERED / AUTOFUSE_V2_UNREGISTERED) or refused by codegen (its reason code).
#include <iostream>
#include <nlohmann/json.hpp>

#include "autofuse/hw/profile.h"
#include "autofuse/ir/op_registry.h"
#include "commands.h"

namespace af::cli {
namespace {

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v)
    s += (s.empty() ? "" : ",") + x;
  return s;
}

std::vector<std::string> DtypeNames(const ir::OpDef& op) {
  std::vector<std::string> v;
  for (const auto d : op.dtypes)
    v.emplace_back(ir::DTypeName(d));
  if (v.empty()) v.emplace_back("any");
  return v;
}

std::string OutputDtype(const ir::OpDef& op) {
  switch (op.out_rule) {
    case ir::DTypeRule::kSameAsFirst:
      return "=x0";
    case ir::DTypeRule::kSameAsSecond:
      return "=x1";
    case ir::DTypeRule::kBool:
      return "bool";
    case ir::DTypeRule::kDeclared:
      return "declared";
  }
  return "?";
}

std::vector<std::string> Outputs(const ir::OpDef& op) {
  if (op.dynamic_outputs) return {"y..."};
  if (op.num_outputs == 1) return {"y"};
  std::vector<std::string> v;
  for (int k = 1; k <= op.num_outputs; ++k)
    v.push_back("y" + std::to_string(k));
  return v;
}

}  // namespace

int RunOps(const OpsOptions& opts) {
  const hw::Profile& profile = hw::GetProfile(opts.soc);  // InputError for unknown names
  const bool v2 = profile.npu_arch == "dav-3510";
  nlohmann::json ops = nlohmann::json::array();
  int supported = 0;
  for (const auto& op : ir::AllOps()) {
    const std::string autofuse = ir::AutofuseRefusal(op, v2);
    std::string status = "supported";
    if (!op.codegen_refusal.empty()) {
      status = "refused";
    } else if (!autofuse.empty()) {
      status = "decision";
    }
    supported += status == "refused" ? 0 : 1;
    std::vector<std::string> inputs = op.inputs;
    if (op.dynamic_inputs && !inputs.empty()) inputs.back() += "...";
    ops.push_back({{"name", op.type},
                   {"compute_type", std::string(ir::ComputeTypeName(op.compute))},
                   {"inputs", inputs},
                   {"outputs", Outputs(op)},
                   {"attrs", op.attrs},
                   {"dtypes", DtypeNames(op)},
                   {"output_dtype", OutputDtype(op)},
                   {"autofuse_v1", op.in_v1},
                   {"autofuse_v2", op.in_v2},
                   {"status", status},
                   {"reason", op.codegen_refusal.empty() ? autofuse : op.codegen_refusal}});
  }
  if (opts.json) {
    nlohmann::json j = {
        {"soc", profile.name}, {"count", ops.size()}, {"compiled", supported}, {"ops", ops}};
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << ops.size() << " ops registered on " << profile.name << " (" << supported
            << " compile; AutoFuse back-end " << (v2 ? "V2" : "V1") << ")\n";
  for (const auto& o : ops) {
    std::cout << "  " << o["name"].get<std::string>() << " ["
              << o["compute_type"].get<std::string>() << "] ("
              << Join(o["inputs"].get<std::vector<std::string>>()) << ") -> ("
              << Join(o["outputs"].get<std::vector<std::string>>()) << ")";
    const auto attrs = o["attrs"].get<std::vector<std::string>>();
    if (!attrs.empty()) std::cout << " attrs " << Join(attrs);
    std::cout << " dtypes " << Join(o["dtypes"].get<std::vector<std::string>>()) << " -> "
              << o["output_dtype"].get<std::string>() << " : " << o["status"].get<std::string>();
    const std::string reason = o["reason"].get<std::string>();
    if (!reason.empty()) std::cout << " " << reason;
    std::cout << "\n";
  }
  return 0;
}

}  // namespace af::cli
