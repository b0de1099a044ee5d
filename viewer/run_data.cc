#include "run_data.h"

#include <QStringList>

#include "report.pb.h"
#include "report_diff.h"

namespace af::viewer {

int Run::kernelCount() const {
  return report ? report->kernels_size() : 0;
}

const report::KernelReport* Run::kernel(int index) const {
  if (!report || index < 0 || index >= report->kernels_size()) return nullptr;
  return &report->kernels(index);
}

const report::KernelReport* Run::kernelView(int index, int group) const {
  const report::KernelReport* k = kernel(index);
  if (k == nullptr) return nullptr;
  const int g = ShownGroup(*k, group);
  return g >= 0 ? &k->groups(g) : k;
}

int ShownGroup(const report::KernelReport& k, int requested) {
  if (k.groups_size() == 0) return -1;
  return requested >= 0 && requested < k.groups_size() ? requested : 0;
}

const report::KernelReport* Run::kernelNamed(const std::string& name) const {
  for (int i = 0; i < kernelCount(); ++i) {
    if (report->kernels(i).name() == name) return &report->kernels(i);
  }
  return nullptr;
}

int Run::fallbackCount() const {
  return report ? report->fallbacks_size() : 0;
}

const report::FallbackReport* Run::fallback(int index) const {
  if (!report || index < 0 || index >= report->fallbacks_size()) return nullptr;
  return &report->fallbacks(index);
}

QString Run::fallbackGroupName() const {
  return frontend ? QStringLiteral("unfused ops") : QStringLiteral("fallbacks");
}

QString BindingsText(const sym::Bindings& b) {
  QStringList parts;
  for (const auto& [name, value] : b)
    parts << QString::fromStdString(name) + "=" + QString::number(value);
  return parts.join(", ");
}

QString FlagsText(const std::map<std::string, std::string>& flags) {
  QStringList parts;
  for (const auto& [k, v] : flags)
    parts << "--" + QString::fromStdString(k) + "=" + QString::fromStdString(v);
  return parts.join(";");
}

int DefaultCase(const report::KernelReport& k) {
  return reportdiff::DefaultCase(k);
}

int EffectiveCase(const report::KernelReport& k, int requested) {
  if (requested >= 0 && requested < k.cases_size()) return requested;
  return DefaultCase(k);
}

QString ShortCaseName(const report::KernelReport& k, int c) {
  return QString::fromStdString(reportdiff::ShortCaseName(k, c));
}

QString GraphName(const report::KernelReport& k) {
  return QString::fromStdString(reportdiff::GraphName(k));
}

sym::Bindings CaseBindings(const report::KernelReport& k, int c) {
  sym::Bindings b;
  if (!k.has_tiling()) return b;
  for (const auto& [name, value] : k.tiling().bindings())
    b[name] = value;
  if (c >= 0 && c < k.cases_size()) {
    const auto& cr = k.cases(c);
    if (cr.feasible()) {
      if (!cr.tile_var().empty()) b[cr.tile_var()] = cr.tile();
      if (!cr.block_var().empty()) b[cr.block_var()] = cr.tiles_per_block();
    }
  }
  return b;
}

}  // namespace af::viewer
