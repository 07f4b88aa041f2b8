#pragma once
// The state of a private predictor as JSON, so that the budget survives saving and loading
// (the .dpmodel bundle embeds it): the options, the problem shape, the parameters (theta;
// for subsample-and-aggregate one array per teacher), the budget and the answers used, and
// the calibration (the mechanism report) for people.
//
// Reading recomputes the calibration from the options and the shape and refuses the state
// when the stored beta / sigma differ (ErrorKind::BadBundle naming the field), so a file
// cannot smuggle in a weaker noise scale. Doubles are written shortest-round-trip (Qt), so
// parameters read back bit for bit.
//
// What this does not do: stop someone from keeping an older copy of the file with fewer
// answers used. The budget protects against accidental overuse by this program.

#include <QJsonObject>

#include "core/prediction/private_predictor.h"
#include "core/prediction/subsample_aggregate.h"

namespace dpstudio::predict {

QJsonObject predictionOptionsToJson(const PredictionOptions& options);
Result<PredictionOptions> predictionOptionsFromJson(const QJsonObject& json);

// {"format": "dpstudio-private-predictor", "version": 1, "mechanism": "prediction", options,
//  train_rows, features, classes, dataset, theta [...], budget, used, report {...}}
QJsonObject predictorToJson(const PrivatePredictor& predictor);
Result<PrivatePredictor> predictorFromJson(const QJsonObject& json);

// The same with "mechanism": "subsample", part_rows and "teachers": [[...], ...].
QJsonObject subsampleToJson(const SubsampleAggregate& predictor);
Result<SubsampleAggregate> subsampleFromJson(const QJsonObject& json);

}  // namespace dpstudio::predict
