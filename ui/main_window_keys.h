#pragma once
// The QSettings keys of the main window, shared by its implementation files
// (main_window.cpp: layout and last dataset; main_window_files.cpp: the file dialogs).

#include <QString>

namespace dpstudio::ui::main_window_keys {

inline const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
inline const QString kStateKey = QStringLiteral("mainWindow/state");
inline const QString kLastSpecKey = QStringLiteral("lastDataset/spec");
inline const QString kLastLabelsKey = QStringLiteral("lastDataset/labels");
inline const QString kViewKindKey = QStringLiteral("view/kind");
inline const QString kOpenDirKey = QStringLiteral("dialogs/openDirectory");
inline const QString kExportDirKey = QStringLiteral("dialogs/exportDirectory");

}  // namespace dpstudio::ui::main_window_keys
