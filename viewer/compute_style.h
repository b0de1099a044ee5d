// How the viewer tells ComputeTypes apart: the ComputeType of an op type (from the op registry)
// and one fill colour per ComputeType, used by graph nodes and the legend alike.
#pragma once

#include <QColor>
#include <QString>
#include <vector>

namespace af::viewer {

// "load", "store", "elewise", "broadcast", ... ("buffer" for Data/Output/Scalar, "unknown" for
// op types the registry does not know).
QString ComputeOf(const QString& op_type);
QColor ComputeColor(const QString& compute);
// Every ComputeType name in legend order.
std::vector<QString> ComputeNames();

}  // namespace af::viewer
