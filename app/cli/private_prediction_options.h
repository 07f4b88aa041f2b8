#pragma once
// The options of the private-prediction mechanisms (prediction, subsample) and of multiparty
// aggregation, shared by `train` and `audit`. They reuse the model and privacy options of
// addMechanismOptions (--model, --epsilon, --delta, --lambda, --huber, --distribution,
// --calibration) and add --budget, --teachers, --parties, --party-split, --partition-seed.

#include "app/cli/cli_common.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/prediction_options.h"

namespace dpstudio::cli {

void addPrivatePredictionOptions(QCommandLineParser& parser);

enum class PrivatePredictionKind { None, Prediction, Subsample, Multiparty };
// Which of these mechanisms --mechanism names (None for the training mechanisms).
PrivatePredictionKind privatePredictionKind(const Command& command);

// Options for --mechanism prediction|subsample; invalid values are exit 4 (InvalidPrivacy),
// malformed ones exit 2 (Usage).
Result<predict::PredictionOptions> predictionOptions(const Command& command);
Result<predict::PredictionOptions> predictionOptions(const Command& command, const QString& mechanism);
// Options for --mechanism multiparty (--lambda is λ of λ‖w‖², paper 004's convention).
Result<multiparty::MultipartyOptions> multipartyOptions(const Command& command);

// `train` only: --protocol trusted-curator|paillier and --transcript FILE (who computes the
// multiparty aggregate; paillier_aggregation.h). Not registered for sweep and audit, which
// aggregate with the trusted curator (the released distribution is the same).
void addMultipartyProtocolOptions(QCommandLineParser& parser);
// Reads them into `options` (multiparty) and `transcriptPath` (empty: none). Usage errors:
// an unknown protocol; --protocol or --transcript with another mechanism; --transcript
// without --protocol paillier (the trusted curator sends no messages).
Status readMultipartyProtocol(const Command& command, multiparty::MultipartyOptions* options, QString* transcriptPath);

// `train --mechanism prediction|subsample|multiparty` (cmd_train_prediction.cpp), called by
// runTrain after parsing.
int runTrainPrivatePrediction(const Command& command);

}  // namespace dpstudio::cli
