// The units a model graph runs as, in execution order: each compiled fused kernel, and each op
// node outside every compiled kernel (run on the reference evaluator). Running a case
// (run_case.h) and planning super kernels (superkernel.h) walk the same order, so a super kernel
// stands exactly where its kernels would have run.
#pragma once

#include <string>
#include <vector>

#include "autofuse/pipeline/pipeline.h"

namespace af::pipeline {

struct Unit {
  int first = 0;    // model node id of its first node
  int kernel = -1;  // index into CompileResult::kernels, or -1 for a single node
  int node = -1;    // model node id when kernel < 0
};

// The tensor values a unit reads / writes (model value ids).
std::vector<int> UnitReads(const CompileResult& r, const Unit& u);
std::vector<int> UnitWrites(const CompileResult& r, const Unit& u);

// The units of a front-end compile (r.front_end set) in the order they run: by first node, each
// as soon as the values it reads exist (graph inputs and values no unit writes exist from the
// start). A kernel a later stage refused is no unit (its ops are); one line per such kernel is
// appended to *log. Throws std::runtime_error on a cyclic dependency.
std::vector<Unit> ExecutionOrder(const CompileResult& r, std::vector<std::string>* log);

}  // namespace af::pipeline
