# Private training mechanisms (ALGORITHMS §3 A–E, H).
target_sources(dpstudio_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/mechanism.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exact_minimizer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/output_perturbation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/objective_perturbation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loss_perturbation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dp_lmgc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dp_sgd.cpp
  ${CMAKE_CURRENT_LIST_DIR}/substitution_rdp.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tuning.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_noise_law.cpp)
