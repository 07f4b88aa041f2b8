#include "ui/training/party_split_editor.h"

#include <QAction>
#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/widgets/number_field.h"

namespace dpstudio::ui {

PartySplitEditor::PartySplitEditor(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* top = new QHBoxLayout;
  even_ = new QCheckBox(tr("Even split,"));
  even_->setChecked(true);
  even_->setToolTip(tr("Every party holds n/K rows (sizes differ by at most one). Off: one fraction per party."));
  parties_ = new QSpinBox;
  parties_->setRange(1, 100'000);
  parties_->setValue(5);
  parties_->setSuffix(tr(" parties"));
  parties_->setToolTip(tr("K: the number of parties the training rows are split among."));
  auto* presetButton = new QPushButton(tr("Presets"));
  presetButton->setToolTip(tr("The splits of paper 004 (Pathak, Rane & Raj 2010, Figure 2)."));
  auto* menu = new QMenu(presetButton);
  const struct {
    const char* name;
    std::vector<double> fractions;  // empty: an even split of five
  } presets[] = {
      {"Even, 5 parties", {}},
      {"Paper 004: 15/20/20/20/25 %", {0.15, 0.2, 0.2, 0.2, 0.25}},
      {"Paper 004: 10/20/20/20/30 %", {0.1, 0.2, 0.2, 0.2, 0.3}},
  };
  for (const auto& preset : presets) {
    QAction* action = menu->addAction(tr(preset.name));
    connect(action, &QAction::triggered, this, [this, fractions = preset.fractions] {
      if (fractions.empty()) setEven(5);
      else setFractions(fractions);
    });
    presets_ << action;
  }
  presetButton->setMenu(menu);
  top->addWidget(even_);
  top->addWidget(parties_);
  top->addStretch(1);
  layout->addLayout(top);
  // On a line of its own: beside the count it made the Training dock scroll sideways at 1366.
  auto* presetRow = new QHBoxLayout;
  presetRow->addWidget(presetButton);
  presetRow->addStretch(1);
  layout->addLayout(presetRow);

  list_ = new QWidget;
  auto* listLayout = new QVBoxLayout(list_);
  listLayout->setContentsMargins(0, 0, 0, 0);
  grid_ = new QGridLayout;
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setColumnStretch(1, 1);
  listLayout->addLayout(grid_);
  add_ = new QToolButton;
  add_->setText(tr("Add party"));
  add_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  add_->setToolTip(tr("One more party; its fraction starts empty: type it, and keep the sum at 1."));
  listLayout->addWidget(add_, 0, Qt::AlignLeft);
  layout->addWidget(list_);

  summary_ = new QLabel;
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);

  connect(even_, &QCheckBox::toggled, this, [this](bool on) {
    if (updating_) return;
    // The split the user sees stays the same: K even shares, or the K rows' count.
    if (on) setEven(std::max(1, static_cast<int>(rows_.size())));
    else setFractions(std::vector<double>(static_cast<std::size_t>(parties_->value()), 1.0 / parties_->value()));
  });
  connect(parties_, &QSpinBox::valueChanged, this, [this] {
    if (!updating_) emit edited();
  });
  connect(add_, &QToolButton::clicked, this, [this] {
    addRow(std::nan(""));
    updateRows();
    emit edited();
  });
  setEven(5);
}

bool PartySplitEditor::isEven() const { return even_->isChecked(); }

int PartySplitEditor::parties() const { return isEven() ? parties_->value() : static_cast<int>(rows_.size()); }

std::vector<double> PartySplitEditor::fractions(double placeholder) const {
  std::vector<double> out;
  for (const Row& row : rows_) out.push_back(row.field->value().value_or(placeholder));
  return out;
}

bool PartySplitEditor::fractionsValid() const {
  return std::all_of(rows_.begin(), rows_.end(), [](const Row& row) { return row.field->isValid(); });
}

QStringList PartySplitEditor::fieldProblems() const {
  QStringList out;
  if (isEven()) return out;
  for (std::size_t j = 0; j < rows_.size(); ++j)
    if (!rows_[j].field->isValid()) out << tr("party %1: %2").arg(j + 1).arg(rows_[j].field->problem());
  return out;
}

void PartySplitEditor::setEven(int parties) {
  updating_ = true;
  even_->setChecked(true);
  parties_->setValue(parties);
  updating_ = false;
  updateRows();
  emit edited();
}

void PartySplitEditor::setFractions(const std::vector<double>& fractions) {
  updating_ = true;
  even_->setChecked(false);
  while (!rows_.empty()) removeRow(static_cast<int>(rows_.size()) - 1);
  for (double f : fractions) addRow(f);
  updating_ = false;
  updateRows();
  emit edited();
}

void PartySplitEditor::setFractionCheck(FractionCheck check) {
  check_ = std::move(check);
  recheck();
}

void PartySplitEditor::recheck() {
  for (const Row& row : rows_) row.field->recheck();
}

void PartySplitEditor::setSummary(const QString& text, bool problem) {
  summary_->setStyleSheet(problem ? QStringLiteral("QLabel { color: #b00020; }") : QString());
  summary_->setForegroundRole(problem ? QPalette::WindowText : QPalette::PlaceholderText);
  summary_->setText(text);
  summary_->setVisible(!text.isEmpty());
}

NumberField* PartySplitEditor::fractionField(int party) const {
  return party >= 0 && party < static_cast<int>(rows_.size()) ? rows_[static_cast<std::size_t>(party)].field : nullptr;
}

QToolButton* PartySplitEditor::removeButton(int party) const {
  return party >= 0 && party < static_cast<int>(rows_.size()) ? rows_[static_cast<std::size_t>(party)].remove
                                                              : nullptr;
}

void PartySplitEditor::addRow(double value) {
  Row row{new QLabel, new NumberField, new QToolButton};
  if (std::isfinite(value)) row.field->setValue(value);
  row.field->setHelp(tr("The share of the training rows this party holds, > 0; the shares sum to 1."));
  // The check finds the field's current position: rows above it may have been removed.
  NumberField* field = row.field;
  row.field->setCheck([this, field](double v) {
    const auto it = std::find_if(rows_.begin(), rows_.end(), [field](const Row& r) { return r.field == field; });
    if (!check_ || it == rows_.end()) return QString();
    return check_(static_cast<int>(it - rows_.begin()), v);
  });
  row.remove->setIcon(style()->standardIcon(QStyle::SP_DialogDiscardButton));
  row.remove->setAutoRaise(true);
  connect(row.field, &NumberField::valueEdited, this, [this, field] {
    // The sum involves every field: the others' marks follow this one.
    for (const Row& other : rows_)
      if (other.field != field) other.field->recheck();
    emit edited();
  });
  connect(row.remove, &QToolButton::clicked, this, [this, field] {
    const auto it = std::find_if(rows_.begin(), rows_.end(), [field](const Row& r) { return r.field == field; });
    if (it == rows_.end() || rows_.size() <= 1) return;
    removeRow(static_cast<int>(it - rows_.begin()));
    updateRows();
    recheck();
    emit edited();
  });
  rows_.push_back(row);
  row.field->recheck();
}

void PartySplitEditor::removeRow(int party) {
  const Row row = rows_[static_cast<std::size_t>(party)];
  rows_.erase(rows_.begin() + party);
  for (QWidget* widget : std::initializer_list<QWidget*>{row.label, row.field, row.remove}) {
    grid_->removeWidget(widget);
    widget->hide();
    widget->deleteLater();
  }
}

void PartySplitEditor::updateRows() {
  // Re-laid out in order: numbers follow the rows' positions after a removal.
  for (std::size_t j = 0; j < rows_.size(); ++j) {
    const Row& row = rows_[j];
    const int r = static_cast<int>(j);
    row.label->setText(tr("Party %1:").arg(r + 1));
    row.remove->setToolTip(tr("Remove party %1").arg(r + 1));
    row.remove->setEnabled(rows_.size() > 1);  // an empty list would mean an even split
    grid_->addWidget(row.label, r, 0);
    grid_->addWidget(row.field, r, 1);
    grid_->addWidget(row.remove, r, 2);
  }
  parties_->setEnabled(isEven());
  list_->setVisible(!isEven());
}

}  // namespace dpstudio::ui
