#pragma once
// The GUI's settings file (QSettings: one INI file per user) read back safely (issue 15
// item 5). A file that no longer parses — a disk error, a crash of another program writing
// it, a hand edit gone wrong — is moved aside, never silently overwritten or reset, and the
// window starts with the defaults and says so. Values of the wrong type in a readable file
// are each replaced by its default where it is read (every reader validates).

#include <QString>

namespace dpstudio::ui {

// Checks the application's settings file (QSettings with the application's names, as set
// before the call). When it cannot be parsed, renames it to "<file>.unreadable-<date-time>"
// beside itself, so that the next write starts a fresh file, and returns what to tell the
// person: which file, where it was kept, and that the defaults are used. Empty when the
// file is fine or absent.
QString setAsideUnreadableSettings();

}  // namespace dpstudio::ui
