# Privacy primitives: randomness sources, noise distributions, calibration, composition,
# the RDP accountant and the session ledger. Plain C++ on Eigen and Boost (no Qt).
target_sources(dpstudio_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/log_math.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/noise_source.cpp
  ${CMAKE_CURRENT_LIST_DIR}/release_granularity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exact_bernoulli.cpp
  ${CMAKE_CURRENT_LIST_DIR}/noise.cpp
  ${CMAKE_CURRENT_LIST_DIR}/noise_norm_law.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gaussian.cpp
  ${CMAKE_CURRENT_LIST_DIR}/composition.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rdp_sampled_gaussian.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rdp_accountant.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger.cpp)
