# Private prediction and multiparty aggregation (ALGORITHMS §3 F, G, I).
target_sources(dpstudio_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/prediction_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/answer_budget.cpp
  ${CMAKE_CURRENT_LIST_DIR}/budget_ledger.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data_contract.cpp
  ${CMAKE_CURRENT_LIST_DIR}/private_predictor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/part_training.cpp
  ${CMAKE_CURRENT_LIST_DIR}/subsample_aggregate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/predictor_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/multiparty_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/aggregation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/multiparty.cpp)
