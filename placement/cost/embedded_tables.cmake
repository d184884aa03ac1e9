# SPDX-License-Identifier: MIT
# The cost model's data tables (resources/placement/*.json) embedded into placescope_placement as headers
# <placement/cost/<name>_json.h>, so the JSON files stay the single source and the binaries need no data dir.
set(PLACEMENT_EMBED_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated/placement/cost)
set(PLACEMENT_TABLES devices capabilities_torch capabilities_tf capabilities_ort)
set(PLACEMENT_EMBEDDED_HEADERS)
foreach(table ${PLACEMENT_TABLES})
  string(REPLACE "_" ";" words ${table})
  set(identifier "k")
  foreach(word ${words})
    string(SUBSTRING ${word} 0 1 first)
    string(TOUPPER ${first} first)
    string(SUBSTRING ${word} 1 -1 rest)
    string(APPEND identifier "${first}${rest}")
  endforeach()
  placescope_embed_text(${PROJECT_SOURCE_DIR}/resources/placement/${table}.json
                        ${PLACEMENT_EMBED_DIR}/${table}_json.h ${identifier}Json)
  list(APPEND PLACEMENT_EMBEDDED_HEADERS ${PLACEMENT_EMBED_DIR}/${table}_json.h)
endforeach()
target_sources(placescope_placement PRIVATE ${PLACEMENT_EMBEDDED_HEADERS})
target_include_directories(placescope_placement PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
