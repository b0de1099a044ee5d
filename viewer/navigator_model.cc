#include "navigator_model.h"

#include <QFileInfo>

#include "report.pb.h"

namespace af::viewer {
namespace {

QStandardItem* Item(const QString& text, int kind, int run, int kernel, int tcase) {
  auto* item = new QStandardItem(text);
  item->setEditable(false);
  item->setData(run, NavigatorModel::kRunRole);
  item->setData(kernel, NavigatorModel::kKernelRole);
  item->setData(tcase, NavigatorModel::kCaseRole);
  item->setData(kind, NavigatorModel::kKindRole);
  item->setData(-1, NavigatorModel::kFallbackRole);
  item->setData(-1, NavigatorModel::kKernelGroupRole);
  return item;
}

QList<QStandardItem*> Row(QStandardItem* first, const QString& status, const QString& tip) {
  auto* second = new QStandardItem(status);
  second->setEditable(false);
  for (int role : {NavigatorModel::kRunRole, NavigatorModel::kKernelRole, NavigatorModel::kCaseRole,
                   NavigatorModel::kKindRole, NavigatorModel::kFallbackRole,
                   NavigatorModel::kKernelGroupRole}) {
    second->setData(first->data(role), role);
  }
  first->setToolTip(tip);
  second->setToolTip(tip);
  first->setData(QStringList({first->text(), status, tip}).join(QLatin1Char('\n')),
                 NavigatorModel::kSearchRole);
  return {first, second};
}

// The tiling cases of k (kernel i, or its group `group`) as children of `parent`.
void AppendCases(QStandardItem* parent, const report::KernelReport& k, int run_index, int i,
                 int group) {
  for (int c = 0; c < k.cases_size(); ++c) {
    const auto& cr = k.cases(c);
    // Cases of different templates can share a name (B0R0 of all_load and of common).
    QString cname = ShortCaseName(k, c);
    for (int o = 0; o < k.cases_size(); ++o) {
      if (o != c && ShortCaseName(k, o) == cname && !cr.template_name().empty()) {
        cname += QStringLiteral(" (%1)").arg(QString::fromStdString(cr.template_name()));
        break;
      }
    }
    auto* citem = Item(cname, NavigatorModel::kCaseItem, run_index, i, c);
    citem->setData(group, NavigatorModel::kKernelGroupRole);
    QString cstat;
    if (k.has_tiling()) {
      const bool chosen = k.tiling().chosen_case() == c;
      cstat = !cr.feasible() ? NavigatorModel::tr("infeasible")
                             : NavigatorModel::tr("%1%2 cycles · %3 cores")
                                   .arg(chosen ? NavigatorModel::tr("chosen · ") : QString())
                                   .arg(cr.modeled_cycles(), 0, 'f', 0)
                                   .arg(cr.block_dim());
      if (chosen) {
        QFont f = citem->font();
        f.setBold(true);
        citem->setFont(f);
      }
    } else {
      cstat = NavigatorModel::tr("tiles %1").arg(QString::fromStdString(cr.tile_var()));
    }
    parent->appendRow(Row(citem, cstat,
                          QStringLiteral("%1: tiles %2; UB bytes = %3")
                              .arg(QString::fromStdString(cr.name()).toHtmlEscaped(),
                                   QString::fromStdString(cr.tile_var()),
                                   QString::fromStdString(cr.ub_bytes_expr()).toHtmlEscaped())));
  }
}

// Group g of a multi-group kernel: its name, chosen case and cycles, and its cases below it.
void AppendGroup(QStandardItem* kitem, const report::KernelReport& gr, int run_index, int i,
                 int g) {
  auto* gitem = Item(NavigatorModel::tr("group %1").arg(g), NavigatorModel::kKernelGroupItem,
                     run_index, i, -1);
  gitem->setData(g, NavigatorModel::kKernelGroupRole);
  QString outcome;
  if (!gr.error_code().empty()) {
    outcome = NavigatorModel::tr("refused %1").arg(QString::fromStdString(gr.error_code()));
  } else if (gr.has_cube()) {
    const auto& c = gr.cube();
    outcome = c.tiled() ? NavigatorModel::tr("cube %1 · %2 cube cores · %3 cycles")
                              .arg(QString::fromStdString(c.template_name()))
                              .arg(c.block_dim())
                              .arg(c.cycles(), 0, 'f', 0)
                        : NavigatorModel::tr("cube, sizes unbound");
  } else if (gr.skipped()) {
    outcome = NavigatorModel::tr("not run: kFixpip did this epilogue");
  } else if (gr.has_tiling() && gr.tiling().chosen_case() >= 0) {
    outcome = NavigatorModel::tr("%1 · %2 cores · %3 cycles")
                  .arg(ShortCaseName(gr, gr.tiling().chosen_case()))
                  .arg(gr.tiling().block_dim())
                  .arg(gr.tiling().modeled_cycles(), 0, 'f', 0);
  } else {
    outcome = NavigatorModel::tr("%n case(s), sizes unbound", "", gr.cases_size());
  }
  if (gr.after_sync_all()) outcome += NavigatorModel::tr(" · after SyncAll");
  const QString tip = NavigatorModel::tr("group %1: %2")
                          .arg(g)
                          .arg(QString::fromStdString(gr.name()).toHtmlEscaped());
  kitem->appendRow(Row(gitem, outcome, tip));
  AppendCases(gitem, gr, run_index, i, g);
}

}  // namespace

NavigatorModel::NavigatorModel(QObject* parent) : QStandardItemModel(parent) {
  setHorizontalHeaderLabels({tr("Run / kernel / case"), tr("Outcome")});
}

void NavigatorModel::addRun(int run_index, const Run& run) {
  QStringList what;
  if (!run.request.bindings.empty()) what << BindingsText(run.request.bindings);
  what << QString::fromStdString(run.request.soc);
  if (!run.request.flags.empty()) what << FlagsText(run.request.flags);
  QStringList tip;
  tip << tr("Input: %1").arg(run.request.input.toHtmlEscaped());
  if (!run.report_path.isEmpty()) tip << tr("Report: %1").arg(run.report_path.toHtmlEscaped());
  tip << tr("Profile: %1").arg(QString::fromStdString(run.request.soc));
  tip << tr("Bindings: %1")
             .arg(run.request.bindings.empty() ? tr("none") : BindingsText(run.request.bindings));
  if (!run.request.flags.empty()) tip << tr("Flags: %1").arg(FlagsText(run.request.flags));
  if (run.report) {
    QStringList t;
    for (const auto& st : run.report->timings())
      t << QStringLiteral("%1 %2 ms")
               .arg(QString::fromStdString(st.stage()))
               .arg(st.ms(), 0, 'f', 1);
    if (!t.isEmpty()) tip << tr("Stages: %1").arg(t.join(", "));
  }
  auto* run_item = Item(run.title, kRunItem, run_index, -1, -1);
  QFont bold = run_item->font();
  bold.setBold(true);
  run_item->setFont(bold);
  const QList<QStandardItem*> run_row =
      Row(run_item, what.join(QStringLiteral(" · ")), tip.join(QStringLiteral("<br>")));
  if (!run.ok()) {
    run_row[1]->setText(tr("failed"));
    run_row[1]->setForeground(QColor(0xb0, 0x00, 0x00));
    auto* reason = Item(run.error, kReasonItem, run_index, -1, -1);
    reason->setForeground(QColor(0xb0, 0x00, 0x00));
    run_item->appendRow(Row(reason, QString(), run.error.toHtmlEscaped()));
  }
  for (int i = 0; i < run.kernelCount(); ++i) {
    const report::KernelReport& k = *run.kernel(i);
    const QString graph = GraphName(k);
    const QString label = graph.isEmpty() ? QString::fromStdString(k.name()) : graph;
    auto* kitem = Item(label, kKernelItem, run_index, i, -1);
    QString outcome;
    QString ktip = tr("kernel %1").arg(QString::fromStdString(k.name()).toHtmlEscaped());
    if (i < static_cast<int>(run.origins.size())) {
      ktip += QStringLiteral("<br>") + QString::fromStdString(run.origins[i]).toHtmlEscaped();
    }
    const bool refused = !k.error_code().empty();
    if (refused) {
      outcome = tr("refused %1").arg(QString::fromStdString(k.error_code()));
    } else if (k.groups_size() > 0) {
      outcome = k.groups_modeled_cycles() > 0
                    ? tr("%n groups · %1 cycles (summed)", "", k.groups_size())
                          .arg(k.groups_modeled_cycles(), 0, 'f', 0)
                    : tr("%n groups, sizes unbound", "", k.groups_size());
    } else if (k.has_tiling()) {
      outcome = tr("%1 · %2 cores · %3 cycles")
                    .arg(ShortCaseName(k, DefaultCase(k)))
                    .arg(k.tiling().block_dim())
                    .arg(k.tiling().modeled_cycles(), 0, 'f', 0);
    } else {
      outcome = tr("%n case(s), sizes unbound", "", k.cases_size());
    }
    const QList<QStandardItem*> krow = Row(kitem, outcome, ktip);
    if (refused) {
      krow[1]->setForeground(QColor(0xb0, 0x00, 0x00));
      const QString why = QString::fromStdString(k.error_code() + ": " + k.error());
      auto* reason = Item(why, kReasonItem, run_index, i, -1);
      reason->setForeground(QColor(0xb0, 0x00, 0x00));
      kitem->appendRow(Row(reason, QString(), why.toHtmlEscaped()));
    }
    if (k.groups_size() > 0) {
      for (int g = 0; g < k.groups_size(); ++g)
        AppendGroup(kitem, k.groups(g), run_index, i, g);
    } else {
      AppendCases(kitem, k, run_index, i, -1);
    }
    run_item->appendRow(krow);
  }
  if (run.fallbackCount() > 0) {
    const QString group = run.fallbackGroupName();
    auto* gitem = Item(group, kGroupItem, run_index, -1, -1);
    const QString gtip = run.frontend
                             ? tr("ops the fusion front end left outside every kernel")
                             : tr("groups Inductor fused that could not be lowered to a kernel");
    const QList<QStandardItem*> grow = Row(gitem, QString::number(run.fallbackCount()), gtip);
    for (int f = 0; f < run.fallbackCount(); ++f) {
      const report::FallbackReport& fb = *run.fallback(f);
      auto* fitem = Item(QString::fromStdString(fb.name()), kFallbackItem, run_index, -1, -1);
      fitem->setData(f, kFallbackRole);
      fitem->setForeground(QColor(0x90, 0x50, 0x00));
      const QString reason = QString::fromStdString(fb.reason());
      QString ftip = reason.toHtmlEscaped();
      if (!fb.origin().empty())
        ftip += QStringLiteral("<br>") + QString::fromStdString(fb.origin()).toHtmlEscaped();
      gitem->appendRow(Row(fitem, reason, ftip));
    }
    run_item->appendRow(grow);
  }
  appendRow(run_row);
}

QModelIndex NavigatorModel::indexFor(const Selection& s) const {
  for (int r = 0; r < rowCount(); ++r) {
    const QModelIndex run = index(r, 0);
    if (run.data(kRunRole).toInt() != s.run) continue;
    if (s.kernel < 0 && s.fallback >= 0) {
      for (int g = 0; g < rowCount(run); ++g) {
        const QModelIndex group = index(g, 0, run);
        if (group.data(kKindRole).toInt() != kGroupItem) continue;
        if (s.fallback < rowCount(group)) return index(s.fallback, 0, group);
      }
      return run;
    }
    if (s.kernel < 0) return run;
    for (int k = 0; k < rowCount(run); ++k) {
      const QModelIndex kernel = index(k, 0, run);
      if (kernel.data(kKindRole).toInt() != kKernelItem ||
          kernel.data(kKernelRole).toInt() != s.kernel) {
        continue;
      }
      QModelIndex parent = kernel;
      if (s.group >= 0) {
        for (int g = 0; g < rowCount(kernel); ++g) {
          const QModelIndex gi = index(g, 0, kernel);
          if (gi.data(kKindRole).toInt() == kKernelGroupItem &&
              gi.data(kKernelGroupRole).toInt() == s.group) {
            parent = gi;
          }
        }
      }
      if (s.tcase < 0) return parent;
      for (int c = 0; c < rowCount(parent); ++c) {
        const QModelIndex ci = index(c, 0, parent);
        if (ci.data(kKindRole).toInt() == kCaseItem && ci.data(kCaseRole).toInt() == s.tcase) {
          return ci;
        }
      }
      return parent;
    }
    return run;
  }
  return {};
}

Selection NavigatorModel::selectionFor(const QModelIndex& index) {
  Selection s;
  if (!index.isValid()) return s;
  s.run = index.data(kRunRole).toInt();
  s.kernel = index.data(kKernelRole).toInt();
  s.tcase = index.data(kKindRole).toInt() == kCaseItem ? index.data(kCaseRole).toInt() : -1;
  if (index.data(kKindRole).toInt() == kFallbackItem)
    s.fallback = index.data(kFallbackRole).toInt();
  s.group = index.data(kKernelGroupRole).toInt();
  return s;
}

}  // namespace af::viewer
