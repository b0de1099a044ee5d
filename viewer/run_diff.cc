#include "run_diff.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "report.pb.h"
#include "run_manager.h"

namespace af::viewer {
namespace {

QString CaseText(const KernelSide& s) {
  if (!s.present) return QStringLiteral("—");
  if (!s.refused.empty())
    return QStringLiteral("refused %1").arg(QString::fromStdString(s.refused));
  if (s.case_name.empty()) return QStringLiteral("no cases");
  QString t = QString::fromStdString(s.case_name);
  if (!s.template_name.empty())
    t += QStringLiteral(" (%1)").arg(QString::fromStdString(s.template_name));
  if (!s.tiled) t += QStringLiteral(", unbound");
  return t;
}

QStandardItem* Cell(const QString& text, bool number = false) {
  auto* item = new QStandardItem(text);
  item->setEditable(false);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QStandardItem* Value(const KernelSide& s, double v) {
  return Cell(s.tiled ? QString::number(v, 'f', 0) : QStringLiteral("—"), true);
}

QStandardItem* Delta(const KernelSide& a, const KernelSide& b, double va, double vb,
                     bool lower_is_better) {
  if (!a.tiled || !b.tiled) return Cell(QStringLiteral("—"), true);
  const double d = vb - va;
  QString text = (d > 0 ? QStringLiteral("+") : QString()) + QString::number(d, 'f', 0);
  if (va != 0 && d != 0) text += QStringLiteral(" (%1%)").arg(100.0 * d / va, 0, 'f', 1);
  QStandardItem* item = Cell(text, true);
  item->setData(d, Qt::UserRole);
  if (d != 0 && lower_is_better)
    item->setForeground(d < 0 ? QColor(0x00, 0x80, 0x00) : QColor(0xb0, 0x00, 0x00));
  return item;
}

}  // namespace

std::vector<KernelDiff> DiffRuns(const Run& a, const Run& b) {
  static const report::CompileReport kEmpty;
  return reportdiff::DiffKernels(a.ok() ? *a.report : kEmpty, b.ok() ? *b.report : kEmpty);
}

CompareDialog::CompareDialog(RunManager* runs, int a, int b, QWidget* parent)
    : QDialog(parent), runs_(runs) {
  setWindowTitle(tr("Compare runs"));
  a_ = new QComboBox(this);
  b_ = new QComboBox(this);
  fillCombo(a_);
  fillCombo(b_);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  model_ = new QStandardItemModel(this);
  view_ = new QTableView(this);
  view_->setModel(model_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->verticalHeader()->hide();
  view_->setSortingEnabled(false);
  auto* pick = new QHBoxLayout;
  pick->addWidget(new QLabel(tr("Run A:"), this));
  pick->addWidget(a_, 1);
  pick->addWidget(new QLabel(tr("Run B:"), this));
  pick->addWidget(b_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(pick);
  layout->addWidget(summary_);
  layout->addWidget(view_, 1);
  resize(1400, 480);
  setRuns(a, b);
  connect(a_, &QComboBox::currentIndexChanged, this, [this] { refill(); });
  connect(b_, &QComboBox::currentIndexChanged, this, [this] { refill(); });
  // Runs that finish while the dialog is open become selectable too.
  connect(runs_, &RunManager::runAdded, this, [this](int) {
    const int ra = runA();
    const int rb = runB();
    fillCombo(a_);
    fillCombo(b_);
    setRuns(ra, rb);
  });
}

void CompareDialog::fillCombo(QComboBox* box) {
  const QSignalBlocker block(box);
  box->clear();
  for (int i = 0; i < runs_->count(); ++i) {
    const RunPtr r = runs_->run(i);
    QString text = r->title;
    QStringList what;
    if (!r->request.bindings.empty()) what << BindingsText(r->request.bindings);
    if (!r->request.flags.empty()) what << FlagsText(r->request.flags);
    if (!what.isEmpty()) text += QStringLiteral(" (%1)").arg(what.join(QStringLiteral("; ")));
    box->addItem(text, i);
  }
}

void CompareDialog::setRuns(int a, int b) {
  {
    const QSignalBlocker ba(a_);
    const QSignalBlocker bb(b_);
    a_->setCurrentIndex(a_->findData(a));
    b_->setCurrentIndex(b_->findData(b));
  }
  refill();
}

int CompareDialog::runA() const {
  return a_->currentData().isValid() ? a_->currentData().toInt() : -1;
}

int CompareDialog::runB() const {
  return b_->currentData().isValid() ? b_->currentData().toInt() : -1;
}

QString CompareDialog::summary() const {
  return summary_->text();
}

void CompareDialog::refill() {
  model_->clear();
  model_->setHorizontalHeaderLabels({tr("Kernel (hint graph)"), tr("Case A"), tr("Case B"),
                                     tr("block_dim A"), tr("block_dim B"), tr("Δ block_dim"),
                                     tr("UB bytes A"), tr("UB bytes B"), tr("Δ UB"), tr("Cycles A"),
                                     tr("Cycles B"), tr("Δ cycles")});
  diff_.clear();
  const RunPtr a = runs_->run(runA());
  const RunPtr b = runs_->run(runB());
  if (!a || !b) {
    summary_->setText(tr("Pick two runs."));
    return;
  }
  diff_ = DiffRuns(*a, *b);
  int only_a = 0;
  int only_b = 0;
  int changed = 0;
  double total_a = 0;
  double total_b = 0;
  for (const KernelDiff& d : diff_) {
    if (!d.b.present) ++only_a;
    if (!d.a.present) ++only_b;
    if (d.a.present && d.b.present && d.changed()) ++changed;
    total_a += d.a.tiled ? d.a.cycles : 0;
    total_b += d.b.tiled ? d.b.cycles : 0;
    QString name = QString::fromStdString(d.graph);
    if (!d.b.present) name += tr("  [only in A]");
    if (!d.a.present) name += tr("  [only in B]");
    QList<QStandardItem*> row = {Cell(name),
                                 Cell(CaseText(d.a)),
                                 Cell(CaseText(d.b)),
                                 Value(d.a, static_cast<double>(d.a.block_dim)),
                                 Value(d.b, static_cast<double>(d.b.block_dim)),
                                 Delta(d.a, d.b, static_cast<double>(d.a.block_dim),
                                       static_cast<double>(d.b.block_dim), false),
                                 Value(d.a, static_cast<double>(d.a.ub_bytes)),
                                 Value(d.b, static_cast<double>(d.b.ub_bytes)),
                                 Delta(d.a, d.b, static_cast<double>(d.a.ub_bytes),
                                       static_cast<double>(d.b.ub_bytes), false),
                                 Value(d.a, d.a.cycles),
                                 Value(d.b, d.b.cycles),
                                 Delta(d.a, d.b, d.a.cycles, d.b.cycles, true)};
    if (d.changed()) {
      QFont f = row[0]->font();
      f.setBold(true);
      row[0]->setFont(f);
    }
    if (d.a.case_name != d.b.case_name && d.a.present && d.b.present) {
      row[kCaseB]->setForeground(QColor(0x00, 0x40, 0xb0));
    }
    model_->appendRow(row);
  }
  summary_->setText(tr("%1 vs %2: %n kernel(s) compared, %3 changed, %4 only in A, %5 only in B; "
                       "modelled cycles %6 → %7.",
                       "", static_cast<int>(diff_.size()))
                        .arg(a->title, b->title)
                        .arg(changed)
                        .arg(only_a)
                        .arg(only_b)
                        .arg(total_a, 0, 'f', 0)
                        .arg(total_b, 0, 'f', 0));
  view_->resizeColumnsToContents();
}

}  // namespace af::viewer
