#include "ui/bundle/opened_model.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QObject>

#include <algorithm>

#include "core/experiment/mechanism_catalog.h"
#include "ui/training/mechanism_catalog.h"
#include "ui/training/training_document.h"

namespace dpstudio::ui {
namespace {

// The manifest's mechanism key (PrivacyPlan::key()) as the Training dock names it.
QString mechanismName(const QString& key) {
  if (key.isEmpty() || key == QLatin1String("none") || !experiment::findMechanism(key.toStdString())) return {};
  return mechanismTitle(key.toStdString());
}

std::optional<double> number(const QJsonValue& value) {
  if (!value.isDouble()) return std::nullopt;
  return value.toDouble();
}

BundlePrivacy privacyOf(const QJsonObject& privacy) {
  BundlePrivacy out;
  out.mechanism = mechanismName(privacy["mechanism"].toString());
  out.epsilon = number(privacy["epsilon"]);
  out.delta = number(privacy["delta"]);
  out.published = privacy["calibration"].toString() == QLatin1String("published");
  out.privateAsFile = privacy["private"].toBool(false);
  // Each reason reads "what: why"; the title has room for the what.
  for (const QJsonValue& reason : privacy["not_private"].toArray())
    out.notPrivate << reason.toString().section(QLatin1Char(':'), 0, 0).trimmed();
  // Structure read off the private rows: no reason in not_private, yet not private as a whole.
  if (!privacy["structure_from_data"].toArray().isEmpty()) out.notPrivate << QObject::tr("structure read off the data");
  return out;
}

}  // namespace

QString whyNotDrawable(const bundle::LoadedBundle& loaded, const Dataset* data) {
  if (const auto* f = std::get_if<predict::PrivatePredictor>(&loaded.predictor))
    return QObject::tr("A private predictor (prediction sensitivity) is not drawn: every pixel would spend one of "
                       "its answers (%1 of %2 left). Answer the dataset's rows instead.")
        .arg(f->remaining())
        .arg(f->budget());
  if (const auto* g = std::get_if<predict::SubsampleAggregate>(&loaded.predictor))
    return QObject::tr("A private predictor (subsample-and-aggregate) is not drawn: every pixel would spend one of "
                       "its answers (%1 of %2 left). Answer the dataset's rows instead.")
        .arg(g->remaining())
        .arg(g->budget());
  if (!data) return QObject::tr("Open a dataset first: the regions are drawn on its view.");
  if (data->features() != loaded.inputDim())
    return QObject::tr("The model reads %1 raw features, the dataset shown has %2: its regions cannot be drawn on "
                       "this dataset's view.")
        .arg(loaded.inputDim())
        .arg(data->features());
  return {};
}

std::shared_ptr<const OpenedModel> openedModel(const bundle::LoadedBundle& loaded, const QString& path) {
  const auto* released = std::get_if<bundle::BundleModel>(&loaded.predictor);
  if (!released) return nullptr;
  auto out = std::make_shared<OpenedModel>();
  out->path = path;
  out->fileName = QFileInfo(path).fileName();
  out->modelKind = released->model->kind();
  out->model = released->model;
  out->theta = released->theta;
  out->preprocessor = loaded.preprocessor;
  out->classNames = loaded.classNames;
  out->privacy = privacyOf(loaded.contents.manifest["privacy"].toObject());
  return out;
}

ClassColours matchClassesByName(const std::vector<std::string>& bundleClasses,
                                const std::vector<std::string>& datasetClasses) {
  ClassColours out;
  out.sameClasses = bundleClasses == datasetClasses;
  int next = static_cast<int>(datasetClasses.size());
  for (const std::string& name : bundleClasses) {
    const auto it = std::find(datasetClasses.begin(), datasetClasses.end(), name);
    if (it != datasetClasses.end()) {
      out.colour.push_back(static_cast<int>(it - datasetClasses.begin()));
    } else {
      out.colour.push_back(next++);
      out.unmatched << QString::fromStdString(name);
    }
  }
  return out;
}

}  // namespace dpstudio::ui
