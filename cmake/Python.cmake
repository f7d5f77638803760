# The Python that runs the tests and the docs' tools. A version manager's
# shim on PATH (pyenv's python3 is a shell script that asks pyenv which
# Python to run) costs about 0.3 s a start, and the tests start Python for
# every lit test and for every run of a check in one: CMake is given the
# interpreter the shim runs, found by asking it, so that the same Python
# runs without the shim. -DPython3_EXECUTABLE=... chooses another.
if(NOT Python3_EXECUTABLE)
  find_program(_cublas_tidy_python NAMES python3 NO_CACHE)
  if(_cublas_tidy_python)
    execute_process(
      COMMAND ${_cublas_tidy_python} -c "import sys; print(sys.executable)"
      OUTPUT_VARIABLE _cublas_tidy_python_real
      OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE _cublas_tidy_python_rc ERROR_QUIET)
    if(_cublas_tidy_python_rc EQUAL 0 AND EXISTS "${_cublas_tidy_python_real}")
      set(Python3_EXECUTABLE "${_cublas_tidy_python_real}" CACHE FILEPATH
          "The Python interpreter of the tests and the docs' tools")
    endif()
  endif()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
