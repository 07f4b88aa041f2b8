# LMGC and its solver. Included from tests/models/CMakeLists.txt.
dpstudio_add_test(test_lmgc
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_core)
dpstudio_add_test(test_lmgc_training
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_training.cpp
  LINKS dpstudio_core)
dpstudio_add_test(test_lmgc_ellipsoid
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lmgc_ellipsoid.cpp ${CMAKE_CURRENT_LIST_DIR}/lmgc_test_util.h
  LINKS dpstudio_core)
dpstudio_add_test(test_projected_gradient
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_projected_gradient.cpp
  LINKS dpstudio_core)
