#include "compute_style.h"

#include <map>

#include "autofuse/ir/op_registry.h"

namespace af::viewer {

QString ComputeOf(const QString& op_type) {
  const ir::OpDef* op = ir::FindOp(op_type.toStdString());
  if (op == nullptr) return QStringLiteral("unknown");
  return QString::fromLatin1(ir::ComputeTypeName(op->compute).data(),
                             static_cast<qsizetype>(ir::ComputeTypeName(op->compute).size()));
}

QColor ComputeColor(const QString& compute) {
  // Light fills so black labels stay readable; hues grouped by what the unit does (data
  // movement in blues/greens, vector math in warm colours, layout ops in yellows).
  static const std::map<QString, QColor> colors = {
      {QStringLiteral("buffer"), QColor(0xe8, 0xe8, 0xe8)},
      {QStringLiteral("load"), QColor(0x9e, 0xca, 0xe1)},
      {QStringLiteral("store"), QColor(0xa1, 0xd9, 0x9b)},
      {QStringLiteral("reduce_store"), QColor(0x74, 0xc4, 0x76)},
      {QStringLiteral("elewise"), QColor(0xfd, 0xd0, 0xa2)},
      {QStringLiteral("broadcast"), QColor(0xcb, 0xc9, 0xe2)},
      {QStringLiteral("reduce"), QColor(0xfc, 0xae, 0x91)},
      {QStringLiteral("transpose"), QColor(0xfe, 0xe3, 0x91)},
      {QStringLiteral("concat"), QColor(0xd9, 0xf0, 0xa3)},
      {QStringLiteral("gather"), QColor(0xfa, 0x9f, 0xb5)},
      {QStringLiteral("cube"), QColor(0xbc, 0xbd, 0xdc)},
      {QStringLiteral("split"), QColor(0xc7, 0xe9, 0xc0)},
  };
  const auto it = colors.find(compute);
  return it != colors.end() ? it->second : QColor(0xff, 0xff, 0xff);
}

std::vector<QString> ComputeNames() {
  std::vector<QString> names;
  for (int c = 0; c <= static_cast<int>(ir::ComputeType::kBuffer); ++c) {
    const auto n = ir::ComputeTypeName(static_cast<ir::ComputeType>(c));
    names.push_back(QString::fromLatin1(n.data(), static_cast<qsizetype>(n.size())));
  }
  return names;
}

}  // namespace af::viewer
