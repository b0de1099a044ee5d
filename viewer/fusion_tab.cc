#include "fusion_tab.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "report.pb.h"

namespace af::viewer {
namespace {

constexpr int kMentionRole = Qt::UserRole + 1;

QStandardItem* Cell(const QString& text) {
  auto* item = new QStandardItem(text);
  item->setEditable(false);
  item->setToolTip(text);
  return item;
}

QTableView* Table(QAbstractItemModel* model, QWidget* parent) {
  auto* t = new QTableView(parent);
  t->setModel(model);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->verticalHeader()->hide();
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
  t->horizontalHeader()->setStretchLastSection(true);
  t->setWordWrap(false);
  t->setAlternatingRowColors(true);
  return t;
}

}  // namespace

FusionTab::FusionTab(QWidget* parent) : InspectorTab(parent) {
  refusal_ = new QLabel(this);
  refusal_->setWordWrap(true);
  refusal_->setStyleSheet(
      QStringLiteral("QLabel { background: #fde0dd; color: #800; padding: 6px; }"));
  refusal_->hide();
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter decisions: stage, reason code, node…"));
  filter_->setClearButtonEnabled(true);
  decisions_ = new QStandardItemModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(decisions_);
  proxy_->setFilterKeyColumn(-1);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  decisions_view_ = Table(proxy_, this);
  buffers_ = new QStandardItemModel(this);
  buffers_view_ = Table(buffers_, this);
  auto* split = new QSplitter(Qt::Vertical, this);
  auto* top = new QWidget(split);
  auto* top_layout = new QVBoxLayout(top);
  top_layout->setContentsMargins(0, 0, 0, 0);
  top_layout->addWidget(new QLabel(tr("<b>Decisions</b> (stage, reason code, what and why)"), top));
  top_layout->addWidget(filter_);
  top_layout->addWidget(decisions_view_, 1);
  auto* bottom = new QWidget(split);
  auto* bottom_layout = new QVBoxLayout(bottom);
  bottom_layout->setContentsMargins(0, 0, 0, 0);
  bottom_layout->addWidget(new QLabel(tr("<b>UB buffers</b> planned by the schedule"), bottom));
  bottom_layout->addWidget(buffers_view_, 1);
  split->addWidget(top);
  split->addWidget(bottom);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(refusal_);
  layout->addWidget(split, 1);
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  showKernel(nullptr, -1, -1);
}

QString FusionTab::refusal() const {
  return refusal_->isHidden() ? QString() : refusal_->text();
}

void FusionTab::showKernel(const RunPtr& run, int kernel, int) {
  decisions_->clear();
  decisions_->setHorizontalHeaderLabels({tr("Stage"), tr("Reason code"), tr("Decision")});
  buffers_->clear();
  buffers_->setHorizontalHeaderLabels(
      {tr("Buffer"), tr("Kind"), tr("Buffers"), tr("Element bytes"), tr("Tensors (in order)")});
  const report::KernelReport* k = run ? run->kernel(kernel) : nullptr;
  refusal_->hide();
  if (k == nullptr) return;
  if (!k->error_code().empty()) {
    refusal_->setText(
        tr("Not compiled — %1: %2")
            .arg(QString::fromStdString(k->error_code()), QString::fromStdString(k->error())));
    refusal_->show();
  }
  for (const auto& d : k->decisions()) {
    decisions_->appendRow({Cell(QString::fromStdString(d.stage())),
                           Cell(QString::fromStdString(d.code())),
                           Cell(QString::fromStdString(d.message()))});
  }
  for (const auto& b : k->buffers()) {
    QStringList tensors;
    for (const auto& t : b.tensors())
      tensors << QString::fromStdString(t);
    buffers_->appendRow({Cell(QString::fromStdString(b.name())),
                         Cell(QString::fromStdString(b.kind())), Cell(QString::number(b.buf_num())),
                         Cell(QString::number(b.esize())),
                         Cell(tensors.join(QStringLiteral(", ")))});
  }
  decisions_view_->resizeColumnsToContents();
  buffers_view_->resizeColumnsToContents();
  showNode(node_);
}

void FusionTab::showFallback(const RunPtr& run, int fallback) {
  showKernel(nullptr, -1, -1);
  const report::FallbackReport* fb = run ? run->fallback(fallback) : nullptr;
  if (fb == nullptr) return;
  const QString reason = QString::fromStdString(fb->reason());
  refusal_->setText(
      run->frontend ? tr("Left unfused — %1: %2").arg(QString::fromStdString(fb->name()), reason)
                    : tr("Falls back (not lowered) — %1: %2")
                          .arg(QString::fromStdString(fb->name()), reason));
  refusal_->show();
  // The reason code, when the front end gave one ("[CODE] message").
  QString code;
  QString message = reason;
  if (reason.startsWith(QLatin1Char('['))) {
    const auto close = reason.indexOf(QLatin1Char(']'));
    if (close > 0) {
      code = reason.mid(1, close - 1);
      message = reason.mid(close + 1).trimmed();
    }
  }
  decisions_->appendRow(
      {Cell(run->frontend ? tr("frontend") : tr("import")), Cell(code), Cell(message)});
  if (!fb->origin().empty()) {
    decisions_->appendRow(
        {Cell(tr("origin")), Cell(QString()), Cell(QString::fromStdString(fb->origin()))});
  }
  decisions_view_->resizeColumnsToContents();
}

void FusionTab::showNode(const QString& node) {
  node_ = node;
  const QString quoted = QStringLiteral("'") + node + QStringLiteral("'");
  for (int r = 0; r < decisions_->rowCount(); ++r) {
    const bool on = !node.isEmpty() && decisions_->item(r, kMessage)->text().contains(quoted);
    for (int c = 0; c < decisions_->columnCount(); ++c) {
      QStandardItem* item = decisions_->item(r, c);
      item->setData(on, kMentionRole);
      item->setBackground(on ? QBrush(QColor(0xff, 0xf2, 0xb3)) : QBrush());
    }
  }
  for (int r = 0; r < buffers_->rowCount(); ++r) {
    const QStringList tensors = buffers_->item(r, 4)->text().split(QStringLiteral(", "));
    const bool on = !node.isEmpty() && tensors.contains(node);
    for (int c = 0; c < buffers_->columnCount(); ++c)
      buffers_->item(r, c)->setBackground(on ? QBrush(QColor(0xff, 0xf2, 0xb3)) : QBrush());
  }
}

QList<int> FusionTab::highlightedRows() const {
  QList<int> rows;
  for (int r = 0; r < decisions_->rowCount(); ++r) {
    if (decisions_->item(r, 0)->data(kMentionRole).toBool()) rows << r;
  }
  return rows;
}

}  // namespace af::viewer
