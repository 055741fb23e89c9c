// Test entry point: SystemC's sc_main runs the Catch2 session. ctest runs each
// test case in its own process because SystemC elaborates once per process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
