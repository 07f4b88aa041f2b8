# LMGC and its solver. Included from tests/models/CMakeLists.txt.
# Each links only the libraries it uses, so that a change to LMGC rebuilds little.
# Label "tsan": row chunks and class blocks evaluated on the worker threads (the factored
# objective's screening included).
dpstudio_add_test(test_lmgc
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_models LABELS tsan)
dpstudio_add_test(test_lmgc_solver
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_solver.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_models LABELS tsan)
dpstudio_add_test(test_lmgc_sparse_rows
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_sparse_rows.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_models LABELS tsan)
dpstudio_add_test(test_lmgc_training
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_training.cpp
  LINKS dpstudio_learn)
dpstudio_add_test(test_lmgc_ellipsoid
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_ellipsoid.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_models)
dpstudio_add_test(test_projected_gradient
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_projected_gradient.cpp
  LINKS dpstudio_models)
# Issue 9 item 4: convergence and ellipses on every built-in dataset with the GUI's defaults.
dpstudio_add_test(test_lmgc_builtin
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_builtin.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_builtin_support.h
  LINKS dpstudio_mechanisms LABELS asan_slow TIMEOUT 900)
# Issue 33 item 6: the ellipsoids closed for the picture, on iris, wine and digits.
dpstudio_add_test(test_ellipsoid_closing
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_ellipsoid_closing.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_builtin_support.h
  LINKS dpstudio_mechanisms LABELS asan_slow TIMEOUT 600)
# Issue 34 item 3: mixtures of Gaussians per class — gradient, constants K, L, r, centres,
# and a problem one ellipsoid per class cannot fit.
dpstudio_add_test(test_lmgc_mixture
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_mixture.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_learn)
# Issue 34: the mixture's minimizer over low-rank factors — its objective against θ-space J,
# gradient, thread-count independence, and the minimum it reaches.
dpstudio_add_test(test_lmgc_mixture_solver
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_mixture_solver.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_models LABELS tsan)
# Identical rows merged with their counts: the same evaluations, the whole problem's minimizer.
dpstudio_add_test(test_lmgc_merged_rows
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_merged_rows.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_models)
# The interior point's Newton system: symmetric-matrix coordinates and its pairs' part, summed
# by class bases or by Gram matrices, against the pair-by-pair sum.
dpstudio_add_test(test_lmgc_pair_curvature
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_pair_curvature.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_models LABELS tsan)
# Issue 34: LMGC's dual descent — its bounds against the interior point's minimum, its point's
# J and feasibility, cancel, thread-count independence, and the solver that starts with it.
dpstudio_add_test(test_lmgc_dual_descent
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_dual_descent.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_models LABELS tsan)
