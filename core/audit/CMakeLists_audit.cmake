# Empirical privacy audit (ALGORITHMS §3 J).
target_sources(dpstudio_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/rates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/audit_problem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/audit_targets.cpp
  ${CMAKE_CURRENT_LIST_DIR}/audit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/audit_json.cpp)
