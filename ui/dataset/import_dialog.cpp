#include "ui/dataset/import_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include "core/io/gzip.h"
#include "core/data/data_schema.h"
#include "core/io/schema_json.h"
#include "ui/dataset/schema_editor.h"
#include "ui/dataset/dataset_files.h"
#include "ui/jobs/job.h"
#include "ui/widgets/screen_fit.h"

namespace dpstudio::ui {
namespace {

constexpr int kRawLines = 12;
constexpr int kPreviewRows = 8;
constexpr int kPreviewFeatures = 12;

// The first lines of the file, whatever ends them (LF, CRLF or a lone CR).
QString firstLines(const std::string& bytes) {
  QStringList lines;
  std::size_t start = 0;
  while (start < bytes.size() && lines.size() < kRawLines) {
    std::size_t end = bytes.find_first_of("\r\n", start);
    if (end == std::string::npos) end = bytes.size();
    QString line = QString::fromUtf8(bytes.data() + start, static_cast<qsizetype>(std::min<std::size_t>(end - start, 400)));
    lines << line;
    start = end;
    if (start < bytes.size() && bytes[start] == '\r') ++start;
    if (start < bytes.size() && bytes[start] == '\n') ++start;
  }
  return lines.join(QLatin1Char('\n'));
}

QString delimiterName(char c) {
  switch (c) {
    case ',': return QObject::tr("comma");
    case ';': return QObject::tr("semicolon");
    case '\t': return QObject::tr("tab");
    default: return QString(QLatin1Char(c));
  }
}

ImportPreview summarize(const Dataset& data) {
  ImportPreview p;
  const QLocale locale;
  QStringList counts;
  for (Index count : data.classCounts()) counts << locale.toString(static_cast<qlonglong>(count));
  p.summary = QObject::tr("%1 rows, %2 features, %3 classes (%4); format %5%6")
                  .arg(locale.toString(static_cast<qlonglong>(data.rows())),
                       locale.toString(static_cast<qlonglong>(data.features())))
                  .arg(data.classes())
                  .arg(counts.join(QStringLiteral(" / ")), QString::fromStdString(data.provenance.format),
                       data.provenance.gzip ? QObject::tr(" (gzip)") : QString());
  if (const auto& csv = data.provenance.csv) {
    p.summary += QObject::tr("; delimiter %1; header %2 (%3)")
                     .arg(delimiterName(csv->delimiter), csv->header ? QObject::tr("yes") : QObject::tr("no"),
                          QString::fromStdString(csv->headerChoice));
    if (!csv->headerReason.empty()) p.summary += QObject::tr(": %1").arg(QString::fromStdString(csv->headerReason));
    if (csv->skippedLines > 0) p.summary += QObject::tr("; %n line(s) skipped", nullptr, static_cast<int>(csv->skippedLines));
  }
  if (const auto& schema = data.provenance.schema)
    p.summary += QObject::tr("; schema: %1 features declared").arg(schema->features.size()) +
                 (schema->draftedFromData ? QObject::tr(" (a draft read off the data)") : QString());
  for (const std::string& step : data.provenance.steps) p.warnings << QString::fromStdString(step);
  for (const std::string& mark : data.provenance.structureFromData)
    p.warnings << QObject::tr("read off the data, not declared: %1").arg(QString::fromStdString(mark));
  for (const std::string& warning : data.provenance.warnings) p.warnings << QObject::tr("\u26a0 %1").arg(QString::fromStdString(warning));
  const Index shown = std::min<Index>(data.features(), kPreviewFeatures);
  for (Index j = 0; j < shown; ++j)
    p.columns << (static_cast<std::size_t>(j) < data.featureNames.size() ? QString::fromStdString(data.featureNames[j])
                                                                         : QString::number(j + 1));
  if (data.features() > shown) p.columns << QObject::tr("\u2026");
  p.columns << QObject::tr("label");
  for (Index i = 0; i < std::min<Index>(data.rows(), kPreviewRows); ++i) {
    QStringList row;
    for (Index j = 0; j < shown; ++j) row << QString::number(data.X(i, j), 'g', 6);
    if (data.features() > shown) row << QString();
    const int label = data.y[i];
    row << (label >= 0 && static_cast<std::size_t>(label) < data.classNames.size()
                ? QString::fromStdString(data.classNames[static_cast<std::size_t>(label)])
                : QString::number(label));
    p.rows << row;
  }
  return p;
}

}  // namespace

ImportDialog::ImportDialog(const QString& path, QWidget* parent)
    : QDialog(parent),
      path_(path),
      format_(new QComboBox),
      header_(new QComboBox),
      skipRows_(new QSpinBox),
      delimiter_(new QComboBox),
      labelColumn_(new QLineEdit),
      dropMissing_(new QCheckBox(tr("Drop rows with missing values"))),
      libsvmFeatures_(new QSpinBox),
      labelsPath_(new QLineEdit),
      schemaPath_(new QLineEdit),
      editSchema_(new QPushButton(tr("&Edit\u2026"))),
      raw_(new QPlainTextEdit),
      summary_(new QLabel),
      warnings_(new QLabel),
      table_(new QTableWidget),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel)),
      debounce_(new QTimer(this)) {
  setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));
  setObjectName(QStringLiteral("importDialog"));
  setUpOptionFields();
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(makeOptionsForm());
  addPreview(layout);
  layout->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  resize(sizeWithinScreen(this, QSize(760, 680)));
  connectOptions();
  updateRows();
  startPreview();
}

void ImportDialog::setUpOptionFields() {
  // Names for tests and accessibility tools, as a person reads the rows.
  format_->setObjectName(QStringLiteral("format"));
  header_->setObjectName(QStringLiteral("header"));
  skipRows_->setObjectName(QStringLiteral("skipRows"));
  delimiter_->setObjectName(QStringLiteral("delimiter"));
  labelColumn_->setObjectName(QStringLiteral("labelColumn"));
  dropMissing_->setObjectName(QStringLiteral("dropMissing"));
  libsvmFeatures_->setObjectName(QStringLiteral("libsvmFeatures"));
  labelsPath_->setObjectName(QStringLiteral("labelsPath"));
  schemaPath_->setObjectName(QStringLiteral("schemaPath"));
  schemaPath_->setAccessibleName(tr("Data schema file"));
  schemaPath_->setPlaceholderText(tr("none: structure read off the data (marked)"));
  schemaPath_->setToolTip(tr("A JSON file declaring the label column, the classes, each feature's public range or "
                             "categories and the columns to ignore (Help: docs/formats/schema.md). What it declares "
                             "is not read off the data; its ranges give the norm bound."));
  schemaPath_->setClearButtonEnabled(true);
  format_->setAccessibleName(tr("Format"));
  header_->setAccessibleName(tr("Header"));
  skipRows_->setAccessibleName(tr("Skip lines"));
  delimiter_->setAccessibleName(tr("Delimiter"));
  labelColumn_->setAccessibleName(tr("Label column"));
  libsvmFeatures_->setAccessibleName(tr("LIBSVM features"));
  labelsPath_->setAccessibleName(tr("IDX labels file"));
  format_->addItem(tr("Detect"), static_cast<int>(DataFormat::Auto));
  format_->addItem(tr("CSV"), static_cast<int>(DataFormat::Csv));
  format_->addItem(tr("LIBSVM / SVMlight"), static_cast<int>(DataFormat::LibSvm));
  format_->addItem(tr("IDX (MNIST)"), static_cast<int>(DataFormat::Idx));
  header_->addItem(tr("Detect"), QStringLiteral("auto"));
  header_->addItem(tr("First row is a header"), QStringLiteral("yes"));
  header_->addItem(tr("No header"), QStringLiteral("no"));
  skipRows_->setRange(0, 1'000'000);
  skipRows_->setToolTip(tr("Lines to skip before the data (a title or metadata line)."));
  delimiter_->addItem(tr("Detect"), 0);
  delimiter_->addItem(tr("Comma"), static_cast<int>(','));
  delimiter_->addItem(tr("Semicolon"), static_cast<int>(';'));
  delimiter_->addItem(tr("Tab"), static_cast<int>('\t'));
  labelColumn_->setPlaceholderText(tr("last column"));
  labelColumn_->setToolTip(tr("A header name, or a column number counted from 1 (−1 is the last)."));
  dropMissing_->setToolTip(tr("Otherwise a missing value is an error naming its line and column."));
  libsvmFeatures_->setRange(0, 100'000'000);
  libsvmFeatures_->setSpecialValueText(tr("from the file"));
  libsvmFeatures_->setToolTip(tr("The feature count; a test file must use its training file's (a9a.t: 123)."));
  labelsPath_->setPlaceholderText(tr("the labels file next to the images"));
  if (looksLikeIdxImages(path_)) labelsPath_->setText(guessIdxLabelsPath(path_));
}

QFormLayout* ImportDialog::makeOptionsForm() {
  auto* browse = new QPushButton(tr("Browse\u2026"));
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString labels = QFileDialog::getOpenFileName(this, tr("Labels file"), QFileInfo(path_).absolutePath(),
                                                        dataFileDialogFilters());
    if (!labels.isEmpty()) labelsPath_->setText(labels);
  });
  auto* labelsRow = new QHBoxLayout;
  labelsRow->addWidget(labelsPath_, 1);
  labelsRow->addWidget(browse);
  auto* browseSchema = new QPushButton(tr("Browse…"));
  browseSchema->setObjectName(QStringLiteral("browseSchema"));
  connect(browseSchema, &QPushButton::clicked, this, [this] {
    const QString schema = QFileDialog::getOpenFileName(this, tr("Data schema"), QFileInfo(path_).absolutePath(),
                                                        tr("Data schemas (*.json);;All files (*)"));
    if (!schema.isEmpty()) schemaPath_->setText(schema);
  });
  editSchema_->setObjectName(QStringLiteral("editSchema"));
  editSchema_->setToolTip(tr("Type the label column, the classes and each feature's public range or categories, and "
                             "save them as a schema: from the schema above, or from a draft read off the rows "
                             "(marked until you replace what it read)."));
  editSchema_->setEnabled(false);
  connect(editSchema_, &QPushButton::clicked, this, &ImportDialog::editSchema);
  auto* schemaRow = new QHBoxLayout;
  schemaRow->addWidget(schemaPath_, 1);
  schemaRow->addWidget(browseSchema);
  schemaRow->addWidget(editSchema_);

  auto* form = new QFormLayout;
  auto* file = new QLabel(QDir::toNativeSeparators(path_));
  file->setTextInteractionFlags(Qt::TextSelectableByMouse);
  file->setWordWrap(true);
  form->addRow(tr("File:"), file);
  form->addRow(tr("Format:"), format_);
  form->addRow(tr("Header:"), header_);
  form->addRow(tr("Skip lines:"), skipRows_);
  form->addRow(tr("Delimiter:"), delimiter_);
  form->addRow(tr("Label column:"), labelColumn_);
  form->addRow(QString(), dropMissing_);
  form->addRow(tr("LIBSVM features:"), libsvmFeatures_);
  form->addRow(tr("IDX labels:"), labelsRow);
  form->addRow(tr("Schema:"), schemaRow);
  return form;
}

void ImportDialog::addPreview(QVBoxLayout* layout) {
  raw_->setReadOnly(true);
  raw_->setLineWrapMode(QPlainTextEdit::NoWrap);
  raw_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  raw_->setMaximumHeight(150);
  raw_->setAccessibleName(tr("First lines of the file"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setAccessibleName(tr("What is read"));
  warnings_->setWordWrap(true);
  warnings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setTabKeyNavigation(false);  // Tab moves on to the dialog's buttons
  table_->verticalHeader()->hide();
  table_->setMinimumHeight(150);
  layout->addWidget(new QLabel(tr("<b>The file</b> (first lines):")));
  layout->addWidget(raw_);
  layout->addWidget(new QLabel(tr("<b>As read</b> with these options:")));
  layout->addWidget(summary_);
  layout->addWidget(warnings_);
  layout->addWidget(table_, 1);
}

// Every change of an option reads the file again, once the typing pauses.
void ImportDialog::connectOptions() {
  debounce_->setSingleShot(true);
  debounce_->setInterval(250);
  connect(debounce_, &QTimer::timeout, this, &ImportDialog::startPreview);
  for (QComboBox* box : {format_, header_, delimiter_})
    connect(box, &QComboBox::currentIndexChanged, this, &ImportDialog::schedulePreview);
  connect(format_, &QComboBox::currentIndexChanged, this, &ImportDialog::updateRows);
  connect(skipRows_, &QSpinBox::valueChanged, this, &ImportDialog::schedulePreview);
  connect(libsvmFeatures_, &QSpinBox::valueChanged, this, &ImportDialog::schedulePreview);
  connect(labelColumn_, &QLineEdit::textChanged, this, &ImportDialog::schedulePreview);
  connect(labelsPath_, &QLineEdit::textChanged, this, &ImportDialog::schedulePreview);
  connect(schemaPath_, &QLineEdit::textChanged, this, &ImportDialog::schedulePreview);
  // Typing or clearing the path replaces the schema the file was opened with.
  connect(schemaPath_, &QLineEdit::textEdited, this, [this] { openedSchema_.reset(); });
  connect(dropMissing_, &QCheckBox::toggled, this, &ImportDialog::schedulePreview);
}

LoadOptions ImportDialog::options() const {
  LoadOptions o;
  o.format = static_cast<DataFormat>(format_->currentData().toInt());
  o.hasHeader = parseHeaderChoice(header_->currentData().toString().toStdString()).value_or(std::nullopt);
  o.skipRows = skipRows_->value();
  o.delimiter = static_cast<char>(delimiter_->currentData().toInt());
  o.labelColumn = labelColumn_->text().trimmed().toStdString();
  o.missing = dropMissing_->isChecked() ? MissingPolicy::DropRows : MissingPolicy::Reject;
  o.libsvmFeatures = libsvmFeatures_->value();
  o.labelsPath = labelsPath_->text().trimmed().toStdString();
  o.schema = schema_;
  return o;
}

void ImportDialog::setOptions(const LoadOptions& o) {
  format_->setCurrentIndex(std::max(0, format_->findData(static_cast<int>(o.format))));
  header_->setCurrentIndex(!o.hasHeader ? 0 : *o.hasHeader ? 1 : 2);
  skipRows_->setValue(static_cast<int>(o.skipRows));
  delimiter_->setCurrentIndex(std::max(0, delimiter_->findData(static_cast<int>(o.delimiter))));
  labelColumn_->setText(QString::fromStdString(o.labelColumn));
  dropMissing_->setChecked(o.missing == MissingPolicy::DropRows);
  libsvmFeatures_->setValue(static_cast<int>(o.libsvmFeatures));
  if (!o.labelsPath.empty()) labelsPath_->setText(QString::fromStdString(o.labelsPath));
  openedSchema_ = o.schema;
  schema_ = o.schema;
  if (o.schema) schemaPath_->setPlaceholderText(tr("the schema this file was opened with"));
}

void ImportDialog::updateRows() {
  // CSV rows for CSV (and Detect), the others for theirs.
  const auto format = static_cast<DataFormat>(format_->currentData().toInt());
  const bool csv = format == DataFormat::Auto || format == DataFormat::Csv;
  for (QWidget* w : std::initializer_list<QWidget*>{header_, skipRows_, delimiter_, labelColumn_, dropMissing_})
    w->setEnabled(csv);
  libsvmFeatures_->setEnabled(format == DataFormat::Auto || format == DataFormat::LibSvm);
  labelsPath_->setEnabled(format == DataFormat::Auto || format == DataFormat::Idx);
}

void ImportDialog::schedulePreview() {
  buttons_->button(QDialogButtonBox::Open)->setEnabled(false);
  debounce_->start();
}

void ImportDialog::startPreview() {
  if (job_) {
    job_->cancel();
    job_->disconnect(this);
    job_->deleteLater();
  }
  buttons_->button(QDialogButtonBox::Open)->setEnabled(false);
  summary_->setText(tr("Reading\u2026"));
  const std::string path = path_.toStdString();
  LoadOptions options = this->options();
  options.schema = openedSchema_;
  const std::string schemaPath = schemaPath_->text().trimmed().toStdString();
  auto* job = startJob<ImportPreview>(
      tr("Previewing %1").arg(QFileInfo(path_).fileName()),
      [path, options, schemaPath](const Progress& progress) mutable -> Result<ImportPreview> {
        QString raw;
        if (options.format != DataFormat::Idx) {
          auto bytes = readFileBytes(path, progress);
          if (!bytes) return bytes.error();
          raw = firstLines(bytes.value().bytes);
        }
        ImportPreview preview;
        preview.rawText = raw;
        if (!schemaPath.empty()) {
          auto schema = readSchemaFile(schemaPath);
          if (!schema) {
            preview.error = QString::fromStdString(schema.error().toString());
            return preview;
          }
          options.schema = std::move(schema).value();
        }
        auto loaded = loadDatasetFile(path, options, progress);
        if (loaded) {
          preview = summarize(loaded.value());
          preview.editable = options.schema ? *options.schema : draftSchema(loaded.value());
        } else {
          preview.error = QString::fromStdString(loaded.error().toString());
        }
        preview.rawText = raw;
        preview.schema = options.schema;
        return preview;
      },
      this);
  job_ = job;
  connect(job, &JobHandle::finished, this, [this, job](JobHandle::State state) {
    job->deleteLater();
    if (job_ == job) job_.clear();
    if (state == JobHandle::State::Succeeded) {
      showPreview(job->takeValue());
    } else if (state == JobHandle::State::Failed) {
      ImportPreview failed;
      failed.error = job->errorText();
      showPreview(failed);
    }
  });
}

void ImportDialog::showPreview(const ImportPreview& preview) {
  preview_ = preview;
  schema_ = preview.schema;
  if (!preview.rawText.isEmpty() || preview.error.isEmpty()) raw_->setPlainText(preview.rawText);
  const bool ok = preview.error.isEmpty();
  summary_->setStyleSheet(ok ? QString() : QStringLiteral("QLabel { color: #b00020; }"));
  summary_->setText(ok ? preview.summary : tr("Cannot be read this way: %1").arg(preview.error));
  warnings_->setText(preview.warnings.join(QLatin1Char('\n')));
  warnings_->setVisible(!preview.warnings.isEmpty());
  table_->clear();
  table_->setColumnCount(static_cast<int>(preview.columns.size()));
  table_->setRowCount(static_cast<int>(preview.rows.size()));
  table_->setHorizontalHeaderLabels(preview.columns);
  for (int i = 0; i < preview.rows.size(); ++i)
    for (int j = 0; j < preview.rows[i].size(); ++j) table_->setItem(i, j, new QTableWidgetItem(preview.rows[i][j]));
  table_->resizeColumnsToContents();
  buttons_->button(QDialogButtonBox::Open)->setEnabled(ok);
  editSchema_->setEnabled(preview.editable.has_value());
  emit previewShown();
}

void ImportDialog::editSchema() {
  if (!preview_.editable) return;
  const QString current = schemaPath_->text().trimmed();
  const QFileInfo file(path_);
  auto* editor = new SchemaEditor(*preview_.editable,
                                  current.isEmpty() ? file.absolutePath() + QLatin1Char('/') + file.completeBaseName() +
                                                          QStringLiteral(".schema.json")
                                                    : current,
                                  this);
  editor->setAttribute(Qt::WA_DeleteOnClose);
  connect(editor, &QDialog::accepted, this, [this, editor] {
    // Read the file by what was saved: the preview follows the path.
    openedSchema_.reset();
    if (schemaPath_->text() == editor->savedPath()) schedulePreview();
    else schemaPath_->setText(editor->savedPath());
  });
  editor->open();
}

}  // namespace dpstudio::ui
