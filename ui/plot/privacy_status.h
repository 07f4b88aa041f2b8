#pragma once
// How the decision view marks what a drawn model's privacy is, in its title: green for a
// mechanism with its budget, red for a model without a mechanism or calibrated "as
// published" (not private as stated). A trained model (decision_overlay.h) and an opened
// bundle (bundle/opened_model_caption.h) are marked alike, so that the same colour always
// means the same thing.

#include <QString>

namespace dpstudio::ui {

struct PrivacyStatus {
  QString plain;  // for the export's title
  QString html;   // coloured, above the plot
};

// mechanism: its name for people, or empty for none; budget: "ε = 1, δ = 0" (and whatever
// the privacy unit adds); published: calibrated as published, NOT private as stated;
// notPrivate: why a mechanism's output is nevertheless not private (experiment noise), or
// empty.
PrivacyStatus privacyStatus(const QString& mechanism, const QString& budget, bool published,
                            const QString& notPrivate = {});

// The title line that marks a PCA view (fitted on the data, not private): a line of its own,
// as the title's first line with it was cut at 1366×768.
QString pcaViewWarningHtml();

}  // namespace dpstudio::ui
