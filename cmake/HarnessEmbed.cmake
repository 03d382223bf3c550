# Embedding of kernel sources and experiment specs into the binary.
#
# harness_embed(<files...>) registers files (paths relative to the calling
# CMakeLists.txt); harness_generate_embedded(<target>) is called once, after
# every directory has registered its files, and compiles the table
# (path relative to the repository root -> contents) into <target>.

function(harness_embed)
  foreach(f IN LISTS ARGN)
    get_filename_component(abs "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${abs}")
    set_property(GLOBAL APPEND PROPERTY HARNESS_EMBEDDED_FILES "${rel}")
  endforeach()
endfunction()

function(harness_generate_embedded target)
  get_property(files GLOBAL PROPERTY HARNESS_EMBEDDED_FILES)
  list(REMOVE_DUPLICATES files)
  set(deps "")
  foreach(f IN LISTS files)
    list(APPEND deps "${PROJECT_SOURCE_DIR}/${f}")
  endforeach()
  string(REPLACE ";" "|" packed "${files}")
  set(out "${PROJECT_BINARY_DIR}/generated/embedded_files.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" "-DROOT=${PROJECT_SOURCE_DIR}" "-DFILES=${packed}" "-DOUT=${out}"
            -P "${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake"
    DEPENDS ${deps} "${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake"
    COMMENT "Embedding kernel sources and experiment specs"
    VERBATIM)
  # The rule lives in this directory; a target here drives it (Makefile
  # generators attach custom commands to targets of the same directory).
  add_custom_target(${target}_embedded DEPENDS "${out}")
  add_dependencies(${target} ${target}_embedded)
  target_sources(${target} PRIVATE "${out}")
endfunction()
