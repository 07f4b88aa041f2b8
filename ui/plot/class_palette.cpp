#include "ui/plot/class_palette.h"

#include <array>

namespace dpstudio::ui {
namespace {

constexpr std::array<QRgb, 10> kPalette = {
    0xff0072b2,  // blue
    0xffe69f00,  // orange
    0xff009e73,  // bluish green
    0xffcc79a7,  // reddish purple
    0xff56b4e9,  // sky blue
    0xffd55e00,  // vermillion
    0xffc9b400,  // yellow, darkened so it reads on white
    0xff332288,  // indigo (Tol)
    0xff882255,  // wine (Tol)
    0xff555555,  // dark grey
};

}  // namespace

QColor classColor(int classIndex) {
  const int n = static_cast<int>(kPalette.size());
  const int k = ((classIndex % n) + n) % n;
  return QColor::fromRgba(kPalette[static_cast<std::size_t>(k)]);
}

int classPaletteSize() { return static_cast<int>(kPalette.size()); }

}  // namespace dpstudio::ui
