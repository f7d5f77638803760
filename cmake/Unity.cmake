# The sanitizer build and the plugin for an older clang-tidy (builds that
# CI makes from nothing on a fresh machine, and that bench/run does not
# measure) compile CublasTidyCore's sources in groups, each group one unit
# (CMake's unity build): the Clang headers every source includes are
# parsed, and their inline functions instrumented and optimised, once a
# group instead of once a source. A group holds sources of one kind only
# (lib/ast and lib/model, lib/facts, the checks, the checks' helpers such
# as CallableGroup), so that a unit test that links the library's facts or
# helpers does not pull a check, and with it clang-tidy, into its link.
# The plain build compiles each source alone, which keeps every source
# compiling on its own includes. -DCUBLAS_TIDY_UNITY=OFF compiles each
# source alone everywhere.
option(CUBLAS_TIDY_UNITY
       "Compile the library in groups in the sanitizer and older-LLVM builds" ON)
set(CUBLAS_TIDY_UNITY_GROUP_SIZE 6 CACHE STRING
    "Sources of CublasTidyCore to a unit of a unity build")

function(cublas_tidy_unity_groups Target)
  if(NOT (CUBLAS_TIDY_SANITIZE OR CUBLAS_TIDY_PLUGIN_ONLY) OR
     NOT CUBLAS_TIDY_UNITY)
    return()
  endif()
  get_target_property(Sources ${Target} SOURCES)
  set(Counts)
  foreach(Source IN LISTS Sources)
    if(Source MATCHES "/checks/[A-Za-z]*(Checks?|Module)\\.cpp$")
      set(Folder checks)
    elseif(Source MATCHES "/checks/")
      set(Folder checks_support)
    elseif(Source MATCHES "/facts/")
      set(Folder facts)
    else()
      set(Folder ast)
    endif()
    if(NOT DEFINED Count_${Folder})
      set(Count_${Folder} 0)
    endif()
    math(EXPR Group "${Count_${Folder}} / ${CUBLAS_TIDY_UNITY_GROUP_SIZE}")
    math(EXPR Count_${Folder} "${Count_${Folder}} + 1")
    set_source_files_properties(${Source} TARGET_DIRECTORY ${Target}
      PROPERTIES UNITY_GROUP ${Folder}${Group})
  endforeach()
  set_target_properties(${Target} PROPERTIES
    UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
