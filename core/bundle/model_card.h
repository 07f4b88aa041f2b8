#pragma once
// MODEL_CARD.md, for people: what the model is, its privacy guarantee in one plain
// paragraph, what it was not protected against, and how to use it. Written from the
// manifest alone, so that a bundle whose budget count changes gets its card rewritten too.

#include <QJsonObject>
#include <QString>

namespace dpstudio::bundle {

QString modelCard(const QJsonObject& manifest);

}  // namespace dpstudio::bundle
