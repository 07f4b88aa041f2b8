# LMGC: the model, its ellipsoids, the PSD cone helpers and the projected-gradient solver.
# Included from core/CMakeLists.txt after dpstudio_core is defined.
target_sources(dpstudio_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/lmgc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ellipsoid.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lmgc_solver.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../linalg/psd.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../optim/projected_gradient.cpp)
