#include "report_graphs.h"

#include "autofuse/ir/proto_io.h"
#include "autofuse/ir/text.h"
#include "report.pb.h"

namespace af::viewer {

QString GraphKindName(GraphKind kind) {
  switch (kind) {
    case GraphKind::kHint:
      return QStringLiteral("hint graph");
    case GraphKind::kNormalized:
      return QStringLiteral("normalised graph");
    case GraphKind::kImpl:
      return QStringLiteral("impl graph");
    case GraphKind::kModel:
      return QStringLiteral("model graph");
  }
  return {};
}

GraphResult KernelGraph(const report::KernelReport& k, GraphKind kind, int tcase) {
  GraphResult r;
  try {
    switch (kind) {
      case GraphKind::kHint:
        r.graph = ir::FromProto(k.hint_graph());
        break;
      case GraphKind::kNormalized:
        if (k.normalized_graph_text().empty()) {
          r.error = QStringLiteral("the schedule did not get to normalise this kernel");
        } else {
          r.graph = ir::ParseText(k.normalized_graph_text());
        }
        break;
      case GraphKind::kImpl:
        if (tcase < 0 || tcase >= k.cases_size()) {
          r.error = QStringLiteral("this kernel has no tiling case to show");
        } else {
          r.graph = ir::FromProto(k.cases(tcase).impl_graph());
        }
        break;
      case GraphKind::kModel:
        r.error = QStringLiteral("only runs of FX graphs and case folders have a model graph");
        break;
    }
  } catch (const std::exception& e) {
    r.graph.reset();
    r.error = QStringLiteral("cannot read the %1: %2")
                  .arg(GraphKindName(kind), QString::fromStdString(e.what()));
  }
  return r;
}

}  // namespace af::viewer
