// The "Flags & shapes" form: the hardware profile, the known flags (force_tiling_case, offered
// as the selected kernel's cases; the ATT tiling solver's flags, each "profile default" until
// set), any other flags as free text in AutoFuse's "--key=value;…" syntax, one field per size
// symbol, whether to build the kernels with the host compiler, and whether to estimate super
// kernels (the Timeline tab). It is filled from the selected run (a flag with a form row is shown
// there, never also under Other flags); Re-run asks for a new run with what the form says (the
// main window adds it next to the old one), Cancel drops the running job.
#pragma once

#include <QString>
#include <QWidget>
#include <map>
#include <string>
#include <vector>

#include "run_data.h"
#include "selection_model.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace af::viewer {

class RunManager;

class FlagsPanel : public QWidget {
  Q_OBJECT

 public:
  FlagsPanel(RunManager* runs, SelectionModel* selection, QWidget* parent = nullptr);

  // The request the form describes (for the selected run's input). False, with `error`, when a
  // field does not parse or no run is selected.
  bool request(RunRequest* out, QString* error) const;

  void setSoc(const QString& soc);
  void setForcedCase(int tcase);  // -1: let the cost model choose
  int forcedCase() const;
  void setBinding(const QString& symbol, const QString& value);
  QString binding(const QString& symbol) const;
  QStringList symbols() const;
  void setExtraFlags(const QString& text);
  QString extraFlags() const;
  // The flags with a form row, in form order: those the flag table (pipeline/flag_table.h)
  // marks `form`. Each row's widget has the flag as its object name.
  static const std::vector<std::string>& FormFlags();
  // A form row's value; empty: not set (the pipeline uses the profile's default). Setting a value
  // the row does not offer keeps it (the pipeline judges it). False for a flag without a row.
  bool setFormFlag(const std::string& key, const QString& value);
  QString formFlag(const std::string& key) const;
  void setBuild(bool build);
  void setSuperkernel(bool on);
  void showError(const QString& text);

 signals:
  void rerunRequested();
  void cancelRequested();

 private:
  void onSelectionChanged(const Selection& now, const Selection& before);
  void loadRun();
  void loadCases();
  void updateDefaults();  // the "profile default" texts for the selected hardware

  // One form row of an ATT flag: a combo box (fixed choices, item data = the flag's value, ""
  // for "profile default") or a line edit (a number; empty = not set).
  struct FlagRow {
    std::string key;
    QComboBox* combo = nullptr;
    int fixed_items = 0;  // the combo's own items; more are values kept from a run
    QLineEdit* edit = nullptr;
  };
  const FlagRow* row(const std::string& key) const;

  RunManager* runs_;
  SelectionModel* selection_;
  QLabel* input_;
  QComboBox* soc_;
  QComboBox* forced_;
  QFormLayout* bindings_form_;
  std::map<QString, QLineEdit*> bind_edits_;
  std::vector<FlagRow> att_rows_;
  QLineEdit* flags_;
  QCheckBox* build_;
  QCheckBox* superkernel_;
  QPushButton* rerun_;
  QPushButton* cancel_;
  QLabel* error_;
};

}  // namespace af::viewer
