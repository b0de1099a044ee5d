#include "templates_tab.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "report.pb.h"
#include "selection_model.h"

namespace af::viewer {
namespace {

QStandardItem* Cell(const QString& text, bool right = false) {
  auto* item = new QStandardItem(text);
  item->setEditable(false);
  if (right) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QString Num(qlonglong v) {
  return QLocale::c().toString(v);
}

}  // namespace

TemplatesTab::TemplatesTab(SelectionModel* selection, QWidget* parent)
    : InspectorTab(parent), selection_(selection) {
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  model_ = new QStandardItemModel(this);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (syncing_ || !current.isValid()) return;
            selection_->selectCase(current.row());
          });
  showKernel(nullptr, -1, -1);
}

QString TemplatesTab::summary() const {
  return summary_->text();
}

void TemplatesTab::showKernel(const RunPtr& run, int kernel, int tcase) {
  syncing_ = true;
  model_->clear();
  model_->setHorizontalHeaderLabels({tr("Case"), tr("Tiles"), tr("Fits"), tr("Tile"),
                                     tr("Tiles/block"), tr("Cores"), tr("UB bytes"), tr("Cycles"),
                                     tr("UB occupancy (symbolic)"), tr("Template")});
  chosen_ = -1;
  const report::KernelReport* k = shownKernel(run, kernel);
  if (k == nullptr) {
    summary_->setText(tr("Select a kernel to see its tiling cases."));
    syncing_ = false;
    return;
  }
  if (k->cases_size() == 0) {
    summary_->setText(
        tr("No tiling cases: the kernel was refused (%1).")
            .arg(QString::fromStdString(k->error_code() + ": " + k->error()).toHtmlEscaped()));
    syncing_ = false;
    return;
  }
  const bool bound = k->has_tiling();
  if (bound) chosen_ = k->tiling().chosen_case();
  for (int c = 0; c < k->cases_size(); ++c) {
    const auto& cr = k->cases(c);
    const bool chosen = c == chosen_;
    QList<QStandardItem*> row;
    row << Cell((chosen ? QStringLiteral("★ ") : QString()) + QString::fromStdString(cr.name()));
    row << Cell(QString::fromStdString(cr.tile_var()));
    if (bound) {
      row << Cell(cr.feasible() ? tr("yes") : tr("no"));
      row << Cell(cr.feasible() ? Num(cr.tile()) : QStringLiteral("—"), true);
      row << Cell(cr.feasible() ? Num(cr.tiles_per_block()) : QStringLiteral("—"), true);
      row << Cell(cr.feasible() ? Num(cr.block_dim()) : QStringLiteral("—"), true);
      row << Cell(cr.feasible() ? Num(cr.ub_bytes()) : QStringLiteral("—"), true);
      row << Cell(
          cr.feasible() ? QString::number(cr.modeled_cycles(), 'f', 1) : QStringLiteral("—"), true);
    } else {
      for (int i = 0; i < 6; ++i)
        row << Cell(i == 0 ? tr("unbound") : QStringLiteral("—"), i != 0);
    }
    row << Cell(QString::fromStdString(cr.ub_bytes_expr()));
    row << Cell(QString::fromStdString(cr.template_name()));
    row[kCase]->setData(c, Qt::UserRole);
    if (chosen) {
      for (auto* cell : row) {
        QFont f = cell->font();
        f.setBold(true);
        cell->setFont(f);
        cell->setBackground(QColor(0xe5, 0xf5, 0xe0));
      }
    } else if (bound && !cr.feasible()) {
      for (auto* cell : row)
        cell->setForeground(QColor(0x99, 0x99, 0x99));
    }
    model_->appendRow(row);
  }
  if (bound) {
    const auto& t = k->tiling();
    const auto& cr = k->cases(chosen_);
    QStringList bnd;
    for (const auto& [n, v] : t.bindings())
      bnd << QStringLiteral("%1=%2").arg(QString::fromStdString(n)).arg(v);
    bnd.sort();
    const auto forced = run->request.flags.find("force_tiling_case");
    const QString why =
        forced != run->request.flags.end() && !forced->second.empty()
            ? tr("forced by --force_tiling_case=%1").arg(QString::fromStdString(forced->second))
            : tr("lowest modelled cycles");
    summary_->setText(tr("For %1 on %2: <b>%3</b> (%4) — %5 cycles, %6 of %7 cores, %8 of %9 B "
                         "UB.")
                          .arg(bnd.join(", "), QString::fromStdString(t.soc()),
                               QString::fromStdString(cr.name()).toHtmlEscaped(), why)
                          .arg(t.modeled_cycles(), 0, 'f', 1)
                          .arg(t.block_dim())
                          .arg(t.cores())
                          .arg(Num(t.ub_bytes()), Num(t.ub_capacity())));
    // What changed against the run this one re-ran (same kernel).
    const report::KernelReport* before =
        run->parent ? run->parent->kernelNamed(k->name()) : nullptr;
    if (before != nullptr && before->has_tiling()) {
      const auto& bt = before->tiling();
      summary_->setText(
          summary_->text() +
          tr("<br>Against %1: case %2 → %3, %4 → %5 cycles, %6 → %7 cores, %8 → %9 B UB.")
              .arg(run->parent->title.toHtmlEscaped(), ShortCaseName(*before, bt.chosen_case()),
                   ShortCaseName(*k, chosen_))
              .arg(bt.modeled_cycles(), 0, 'f', 1)
              .arg(t.modeled_cycles(), 0, 'f', 1)
              .arg(bt.block_dim())
              .arg(t.block_dim())
              .arg(Num(bt.ub_bytes()), Num(t.ub_bytes())));
    }
  } else {
    summary_->setText(
        tr("%n case(s). Sizes are unbound, so no case is solved or chosen: bind "
           "them under Flags & shapes and re-run.",
           "", k->cases_size()));
  }
  table_->resizeColumnsToContents();
  const int row = EffectiveCase(*k, tcase);
  if (row >= 0) table_->selectRow(row);
  syncing_ = false;
}

}  // namespace af::viewer
