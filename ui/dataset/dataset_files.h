#pragma once
// What the GUI needs to know about data files before handing them to core: the Open
// dialog's filters and, for an IDX images file, where its labels file probably is (MNIST
// ships them side by side: train-images-idx3-ubyte[.gz] / train-labels-idx1-ubyte[.gz]).

#include <QString>

namespace dpstudio::ui {

QString dataFileDialogFilters();

// True when the name looks like an IDX images file ("…images…idx3…", "….idx3", …).
bool looksLikeIdxImages(const QString& path);

// An existing labels file next to an IDX images file, or an empty string.
QString guessIdxLabelsPath(const QString& imagesPath);

}  // namespace dpstudio::ui
