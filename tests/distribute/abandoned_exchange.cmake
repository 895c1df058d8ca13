# abandoned_exchange.cmake - runs abandoned_exchange_probe under mpirun and checks that a rank leaving its chunk
# exchange midway ends the whole job promptly with status 1 (MpiWorld::abort_at_exit), instead of hanging.
#
# Inputs (-D): MPIEXEC (mpirun), PROBE (the probe executable), RANKS.
cmake_minimum_required(VERSION 3.25)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
string(TIMESTAMP start "%s")
execute_process(COMMAND ${MPIEXEC} --oversubscribe -np ${RANKS} ${PROBE} RESULT_VARIABLE status
                OUTPUT_VARIABLE output ERROR_VARIABLE errors TIMEOUT 60)
string(TIMESTAMP end "%s")
math(EXPR took "${end} - ${start}")
message(STATUS "mpirun -np ${RANKS} ended with '${status}' after ${took} s:\n${output}${errors}")
if(NOT status STREQUAL "1")
  message(FATAL_ERROR "expected the job to end with status 1 (a failed run), got '${status}'")
endif()
if(NOT errors MATCHES "rank 1: rank 1 failed on block [0-9]+")
  message(FATAL_ERROR "rank 1's error is not in the job's output")
endif()
if(NOT errors MATCHES "rank 1 left its chunk exchange before the end: ending every rank of the job")
  message(FATAL_ERROR "the job's output does not say why every rank was ended")
endif()
if(output MATCHES "finished every chunk")
  message(FATAL_ERROR "a rank finished the whole job though rank 1 had left it")
endif()
