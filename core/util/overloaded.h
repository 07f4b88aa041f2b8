#pragma once
// Overloaded{[](const A&) {…}, [](const B&) {…}}: one callable from several lambdas, for
// std::visit over a variant. The deduction guide is spelled out because clang 14 (the
// sanitizer and fuzzing builds) does not deduce aggregate template arguments by itself.

namespace dpstudio {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace dpstudio
