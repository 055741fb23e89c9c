# cmake -DPROGRAM=FILE -DNM=nm -DOBJDUMP=objdump -P check_no_systemc.cmake
# Fails when FILE (a program or shared library) defines or needs any SystemC or TLM
# symbol, or lists libsystemc among the libraries it needs: the proof that warpreg's
# cores link without SystemC.
foreach(var PROGRAM NM OBJDUMP)
  if(NOT ${var})
    message(FATAL_ERROR "check_no_systemc.cmake: -D${var}=... is required")
  endif()
endforeach()
execute_process(COMMAND ${NM} -C ${PROGRAM} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${PROGRAM}")
endif()
execute_process(COMMAND ${NM} -C -D ${PROGRAM} OUTPUT_VARIABLE dynamic_symbols ERROR_QUIET)
string(REGEX MATCHALL "[^\n]*(sc_core::|sc_dt::|tlm::|tlm_utils::|sc_api_version|sc_main)[^\n]*"
  found "${symbols}\n${dynamic_symbols}")
execute_process(COMMAND ${OBJDUMP} -p ${PROGRAM} OUTPUT_VARIABLE headers RESULT_VARIABLE rc)
string(REGEX MATCHALL "NEEDED[ \t]+libsystemc[^\n]*" needed "${headers}")
list(LENGTH found count)
if(found OR needed)
  list(SUBLIST found 0 10 first)
  string(REPLACE ";" "\n  " first "${first}")
  message(FATAL_ERROR "${PROGRAM} uses SystemC: ${count} symbols, e.g.\n  ${first}\n${needed}")
endif()
string(REGEX MATCHALL "\n[0-9a-f]* *[TtWw] " defined "${symbols}")
list(LENGTH defined defined_count)
message(STATUS "${PROGRAM}: no SystemC symbol among ${defined_count} code symbols, no libsystemc needed")
