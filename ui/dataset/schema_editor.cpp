#include "ui/dataset/schema_editor.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "core/io/schema_json.h"

namespace dpstudio::ui {
namespace {

// Categories and classes are typed as a list: "a, b, c" (a value with a comma in it keeps
// its cell read-only, so that it is never split).
const QString kListSeparator = QStringLiteral(", ");

QString listText(const std::vector<std::string>& values) {
  QStringList out;
  for (const std::string& v : values) out << QString::fromStdString(v);
  return out.join(kListSeparator);
}

std::vector<std::string> listValues(const QString& text) {
  std::vector<std::string> out;
  for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (const QString value = part.trimmed(); !value.isEmpty()) out.push_back(value.toStdString());
  return out;
}

bool hasComma(const std::vector<std::string>& values) {
  for (const std::string& v : values)
    if (v.find(',') != std::string::npos) return true;
  return false;
}

QString numberText(double value) { return QString::number(value, 'g', 15); }

// A typed number, in the C locale as the schema file writes it; nullopt for an empty cell.
Result<std::optional<double>> typedNumber(const QString& text, const std::string& where) {
  const QString trimmed = text.trimmed();
  if (trimmed.isEmpty()) return std::optional<double>{};
  bool ok = false;
  const double value = QLocale::c().toDouble(trimmed, &ok);
  if (!ok || !std::isfinite(value))
    return Error{ErrorKind::Usage, where + ": '" + trimmed.toStdString() + "' is not a number", {}, 0, where};
  return std::optional<double>(value);
}

QTableWidgetItem* item(const QString& text, bool editable) {
  auto* cell = new QTableWidgetItem(text);
  if (!editable) cell->setFlags(cell->flags() & ~Qt::ItemIsEditable);
  return cell;
}

}  // namespace

SchemaEditor::SchemaEditor(const DataSchema& schema, const QString& suggestedPath, QWidget* parent)
    : QDialog(parent),
      original_(schema),
      suggestedPath_(suggestedPath),
      draftNote_(new QLabel),
      labelColumn_(new QLineEdit(QString::fromStdString(schema.labelColumn))),
      classes_(new QLineEdit(listText(schema.classes))),
      table_(new QTableWidget),
      allLow_(new QLineEdit),
      allHigh_(new QLineEdit),
      applyToAll_(new QPushButton(tr("Apply to every numeric feature"))),
      public_(new QCheckBox(tr("These values are &public knowledge (a form's allowed values, a sensor's range), "
                               "not read off the rows"))),
      problem_(new QLabel) {
  setWindowTitle(tr("Data schema"));
  setObjectName(QStringLiteral("schemaEditor"));
  draftNote_->setWordWrap(true);
  draftNote_->setStyleSheet(QStringLiteral("QLabel { color: #8a1c00; background: #fff1e6; border: 1px solid #e8a87c;"
                                           " border-radius: 3px; padding: 4px; }"));
  draftNote_->setText(tr("\u26a0 Drafted from the data: the classes, ranges and categories below were read off the "
                         "rows, so they tell something about the private data. Replace them by what is publicly "
                         "known, then tick the box below; until then every result says its structure came from "
                         "the data."));
  draftNote_->setVisible(schema.draftedFromData);
  labelColumn_->setPlaceholderText(tr("the last column"));
  labelColumn_->setToolTip(tr("A header name, or a column number counted from 1 (-1: the last)."));
  classes_->setPlaceholderText(tr("read off the data (marked)"));
  classes_->setToolTip(tr("The labels in class order, as spelled in the file, separated by commas."));
  for (QLineEdit* field : {allLow_, allHigh_}) field->setMaximumWidth(90);
  allLow_->setPlaceholderText(tr("low"));
  allHigh_->setPlaceholderText(tr("high"));
  allLow_->setObjectName(QStringLiteral("schemaAllLow"));
  allHigh_->setObjectName(QStringLiteral("schemaAllHigh"));
  public_->setChecked(!schema.draftedFromData);
  // Without per-feature rows (LIBSVM, IDX, or a schema of one range) the fields are the range.
  if (schema.defaultRange) {
    allLow_->setText(numberText(schema.defaultRange->lo));
    allHigh_->setText(numberText(schema.defaultRange->hi));
  }
  applyToAll_->setVisible(!schema.features.empty());
  problem_->setWordWrap(true);
  problem_->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));

  table_->setColumnCount(4);
  table_->setHorizontalHeaderLabels({tr("Feature"), tr("Low"), tr("High"), tr("Categories")});
  table_->horizontalHeader()->setSectionResizeMode(Categories, QHeaderView::Stretch);
  table_->verticalHeader()->setVisible(false);
  fillTable();

  auto* form = new QFormLayout;
  form->addRow(tr("&Label column:"), labelColumn_);
  form->addRow(tr("&Classes:"), classes_);
  auto* all = new QHBoxLayout;
  all->addWidget(allLow_);
  all->addWidget(allHigh_);
  all->addWidget(applyToAll_);
  all->addStretch(1);
  form->addRow(schema.features.empty() ? tr("Every feature's range:") : tr("One range:"), all);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
  saveButton_ = buttons->button(QDialogButtonBox::Save);
  saveButton_->setText(tr("&Save\u2026"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(draftNote_);
  layout->addLayout(form);
  layout->addWidget(table_, 1);
  layout->addWidget(public_);
  layout->addWidget(problem_);
  layout->addWidget(buttons);

  connect(applyToAll_, &QPushButton::clicked, this, &SchemaEditor::applyRangeToAll);
  connect(table_, &QTableWidget::itemChanged, this, &SchemaEditor::recheck);
  connect(labelColumn_, &QLineEdit::textChanged, this, &SchemaEditor::recheck);
  connect(classes_, &QLineEdit::textChanged, this, &SchemaEditor::recheck);
  for (QLineEdit* field : {allLow_, allHigh_})
    connect(field, &QLineEdit::textChanged, this, [this] {
      if (original_.features.empty()) recheck();
    });
  connect(public_, &QCheckBox::toggled, this, &SchemaEditor::recheck);
  connect(buttons, &QDialogButtonBox::accepted, this, &SchemaEditor::save);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  recheck();
}

void SchemaEditor::fillTable() {
  const QSignalBlocker quiet(table_);
  const auto& features = original_.features;
  table_->setRowCount(static_cast<int>(features.size()));
  for (int i = 0; i < table_->rowCount(); ++i) {
    const FeatureDeclaration& f = features[static_cast<std::size_t>(i)];
    const bool categorical = f.categorical();
    table_->setItem(i, Name, item(f.name.empty() ? tr("column %1").arg(i + 1) : QString::fromStdString(f.name), false));
    const std::optional<FeatureRange> range = f.range ? f.range : original_.defaultRange;
    table_->setItem(i, Low, item(!categorical && range ? numberText(range->lo) : QString(), !categorical));
    table_->setItem(i, High, item(!categorical && range ? numberText(range->hi) : QString(), !categorical));
    table_->setItem(i, Categories, item(listText(f.categories), categorical && !hasComma(f.categories)));
  }
  table_->resizeColumnsToContents();
  for (int column : {Low, High}) table_->setColumnWidth(column, std::max(table_->columnWidth(column), 90));
}

void SchemaEditor::applyRangeToAll() {
  const QSignalBlocker quiet(table_);
  for (int i = 0; i < table_->rowCount(); ++i) {
    if (original_.features[static_cast<std::size_t>(i)].categorical()) continue;
    table_->item(i, Low)->setText(allLow_->text().trimmed());
    table_->item(i, High)->setText(allHigh_->text().trimmed());
  }
  recheck();
}

Result<DataSchema> SchemaEditor::schema() const {
  DataSchema out = original_;
  out.labelColumn = labelColumn_->text().trimmed().toStdString();
  out.classes = listValues(classes_->text());
  if (out.features.empty()) {
    auto lo = typedNumber(allLow_->text(), "range low");
    if (!lo) return lo.error();
    auto hi = typedNumber(allHigh_->text(), "range high");
    if (!hi) return hi.error();
    if (lo.value().has_value() != hi.value().has_value())
      return Error{ErrorKind::Usage, "give both ends of the range, or neither", {}, 0, "feature_range"};
    out.defaultRange.reset();
    if (lo.value()) out.defaultRange = FeatureRange{*lo.value(), *hi.value()};
  } else {
    out.defaultRange.reset();  // every feature's range is in its own row
  }
  for (int i = 0; i < table_->rowCount(); ++i) {
    FeatureDeclaration& f = out.features[static_cast<std::size_t>(i)];
    const std::string where = "feature '" + table_->item(i, Name)->text().toStdString() + "'";
    if (f.categorical()) {
      if (table_->item(i, Categories)->flags() & Qt::ItemIsEditable)
        f.categories = listValues(table_->item(i, Categories)->text());
      if (f.categories.empty())
        return Error{ErrorKind::Usage, where + ": a categorical feature needs its categories", {}, 0, where};
      continue;
    }
    auto lo = typedNumber(table_->item(i, Low)->text(), where + " low");
    if (!lo) return lo.error();
    auto hi = typedNumber(table_->item(i, High)->text(), where + " high");
    if (!hi) return hi.error();
    if (lo.value().has_value() != hi.value().has_value())
      return Error{ErrorKind::Usage, where + ": give both ends of the range, or neither", {}, 0, where};
    f.range.reset();
    if (lo.value()) f.range = FeatureRange{*lo.value(), *hi.value()};
  }
  // The user's word, not the editor's guess: only they know where the values came from.
  out.draftedFromData = !public_->isChecked();
  if (auto valid = out.validate(); !valid) return valid.error();
  return out;
}

void SchemaEditor::recheck() {
  const auto edited = schema();
  problem_->setText(edited ? QString() : QString::fromStdString(edited.error().message));
  problem_->setVisible(!edited);
  draftNote_->setVisible(original_.draftedFromData && !public_->isChecked());
  saveButton_->setEnabled(static_cast<bool>(edited));
}

Status SchemaEditor::saveTo(const QString& path) {
  auto edited = schema();
  if (!edited) return edited.error();
  if (auto written = writeSchemaFile(edited.value(), path.toStdString()); !written) return written.error();
  savedPath_ = path;
  accept();
  return Ok{};
}

void SchemaEditor::save() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save data schema"), suggestedPath_,
                                                    tr("Data schemas (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  if (auto saved = saveTo(path); !saved) {
    problem_->setText(QString::fromStdString(saved.error().toString()));
    problem_->setVisible(true);
  }
}

}  // namespace dpstudio::ui
