#include "ui/widgets/form_rows.h"

#include <QFormLayout>
#include <QWidget>

#include <algorithm>

namespace dpstudio::ui {

void FormRows::adoptNewRows() {
  for (int r = 0; r < form_->rowCount(); ++r) {
    const auto widgetAt = [&](QFormLayout::ItemRole role) -> QWidget* {
      QLayoutItem* item = form_->itemAt(r, role);
      return item ? item->widget() : nullptr;
    };
    QWidget* spanning = widgetAt(QFormLayout::SpanningRole);
    QWidget* field = spanning ? spanning : widgetAt(QFormLayout::FieldRole);
    if (!field || find(field)) continue;
    rows_.push_back({spanning ? nullptr : widgetAt(QFormLayout::LabelRole), field, true});
  }
}

FormRows::Row* FormRows::find(const QWidget* field) {
  const auto found = std::find_if(rows_.begin(), rows_.end(), [field](const Row& row) { return row.field == field; });
  return found == rows_.end() ? nullptr : &*found;
}

void FormRows::setShown(QWidget* field, bool shown) {
  adoptNewRows();
  Row* row = find(field);
  if (!row || row->shown == shown) return;
  row->shown = shown;
  if (!shown) {
    int index = -1;
    QFormLayout::ItemRole role;
    form_->getWidgetPosition(field, &index, &role);
    if (index < 0) return;
    const QFormLayout::TakeRowResult taken = form_->takeRow(index);
    delete taken.labelItem;  // the layout's wrappers of the widgets, not the widgets
    delete taken.fieldItem;
    if (row->label) row->label->hide();
    field->hide();
    return;
  }
  // Back in its place: after the shown rows that come before it.
  const auto before = std::count_if(rows_.begin(), rows_.begin() + (row - rows_.data()),
                                    [](const Row& other) { return other.shown && other.field; });
  const int at = static_cast<int>(before);
  if (row->label) form_->insertRow(at, row->label, field);
  else form_->insertRow(at, field);
  if (row->label) row->label->show();
  field->show();
}

bool FormRows::isShown(const QWidget* field) const {
  const auto found = std::find_if(rows_.begin(), rows_.end(), [field](const Row& row) { return row.field == field; });
  if (found != rows_.end()) return found->shown;
  int index = -1;
  QFormLayout::ItemRole role;
  form_->getWidgetPosition(const_cast<QWidget*>(field), &index, &role);
  return index >= 0;
}

}  // namespace dpstudio::ui
