#pragma once
// What the decision view shows of an opened bundle besides its regions: the dataset's rows
// in the dataset's own view (raw features, as a data file holds them: the bundle
// preprocesses every row itself), a legend entry for each class of the bundle the dataset
// does not have, and a title that says whose regions these are, what privacy the bundle
// states (marked as a trained model's: plot/privacy_status.h), with which preprocessing, and how
// its classes were matched to the dataset's.

#include <QString>

#include "ui/bundle/opened_model.h"
#include "ui/dataset/dataset_document.h"
#include "ui/plot/scatter_series.h"

namespace dpstudio::ui {

ScatterContent openedModelContent(const OpenedModel& model, const ClassColours& colours, const Dataset& data,
                                  const DatasetView& view, const QString& datasetName);

// The preprocessing the bundle applies to every raw row, for people: "norm bound R = 20",
// "unit rows, RBF kernel via D = 200 random Fourier features (γ = 1), intercept"; "none".
QString bundlePreprocessingText(const PreprocessSpec& spec);

}  // namespace dpstudio::ui
