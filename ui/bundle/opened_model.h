#pragma once
// A .dpmodel bundle opened to be drawn in the decision view (Open Model → Show in decision
// view): the released model, its own fitted preprocessing and class names, and what its
// manifest states of its privacy, as one immutable value that region jobs on worker threads
// may keep reading.
//
// Only a bundle whose predictions cost nothing can be drawn: a released or non-private model
// (manifest kind "model": every model kind and mechanism). A stateful private predictor
// (prediction sensitivity, subsample-and-aggregate) would spend one answer of its budget at
// every pixel, so it is never drawn. Nor is a bundle whose raw input has another number of
// features than the dataset shown: its plane would be in another space.

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/bundle/bundle_reader.h"

namespace dpstudio::ui {

// The manifest's "privacy" object, as the title needs it (docs/formats/bundle-format.md).
struct BundlePrivacy {
  QString mechanism;  // for people: "Output perturbation", …; empty: no mechanism
  std::optional<double> epsilon;  // none: the mechanism guarantees nothing (ε = ∞)
  std::optional<double> delta;
  bool published = false;      // calibration "as published": NOT private as stated
  bool privateAsFile = false;  // "private": the stated guarantee holds for this file
  QStringList notPrivate;      // why it does not, each reason's first words
};

struct OpenedModel {
  QString path;
  QString fileName;
  ModelKind modelKind = ModelKind::LogisticRegression;
  std::shared_ptr<const Model> model;
  Eigen::VectorXd theta;
  Preprocessor preprocessor;
  std::vector<std::string> classNames;  // label k of the model is classNames[k]
  BundlePrivacy privacy;

  Index inputDim() const { return preprocessor.inputDim; }
};

// Why `loaded` cannot be drawn on `data` (nullptr: no dataset), for a disabled action's
// tooltip; empty when it can.
QString whyNotDrawable(const bundle::LoadedBundle& loaded, const Dataset* data);

// The drawable part of `loaded`; nullptr for a stateful predictor.
std::shared_ptr<const OpenedModel> openedModel(const bundle::LoadedBundle& loaded, const QString& path);

// The bundle's classes among the dataset's, by name: the colour (class index of the view)
// each bundle class's regions take. A class the dataset has takes that class's colour, so a
// region and the points of its class match; the others take colours after the dataset's
// classes, each its own, and are listed in `unmatched` (the legend names them).
struct ClassColours {
  std::vector<int> colour;  // per bundle class
  QStringList unmatched;    // bundle classes the dataset does not have
  bool sameClasses = false;  // the same names in the same order
};
ClassColours matchClassesByName(const std::vector<std::string>& bundleClasses,
                                const std::vector<std::string>& datasetClasses);

}  // namespace dpstudio::ui
