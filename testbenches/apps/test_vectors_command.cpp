// `warpreg vectors`: the options are checked and named, the file is JSON Lines unless
// memh is asked for (by --format or a .memh / .hex file name).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "testbenches/support/cli_runner.h"

using namespace warpreg::testing;

TEST_CASE("vectors cli: a bad count, seed or format is an error naming the option",
          "[cli][vectors]") {
  for (const char* count : {"-1", "10000001", "18446744073709551616", "1e5", "", "12x"}) {
    const Outcome o = run_warpreg(std::string("vectors bdi --count '") + count + "'");
    INFO(o);
    CHECK(o.status == 2);
    CHECK(contains(o.err, "--count must be a whole number from 0 to 10000000"));
    CHECK(o.out.empty());
  }
  const Outcome seed = run_warpreg("vectors regmutex --seed -3");
  INFO(seed);
  CHECK(seed.status == 2);
  CHECK(contains(seed.err, "--seed must be a whole number"));
  const Outcome format = run_warpreg("vectors coma --format csv");
  INFO(format);
  CHECK(format.status == 2);
  CHECK(contains(format.err, "--format"));
  CHECK(contains(format.err, "jsonl or memh"));
  const Outcome unknown = run_warpreg("vectors srp");
  INFO(unknown);
  CHECK(unknown.status == 2);
  CHECK(contains(unknown.err, "unknown vector generator 'srp'"));
}

TEST_CASE("vectors cli: --out x.json is JSON Lines, --out x.memh is memh, 0x seeds work",
          "[cli][vectors]") {
  const Scratch scratch("warpreg_vectors_cli");
  const std::string json_path = (scratch / "srp.json").string();
  const Outcome o =
      run_warpreg(scratch, "vectors regmutex -n 20 --seed 0x10 --out '" + json_path + "'");
  INFO(o);
  REQUIRE(o.status == 0);
  const std::string text = slurp(json_path);
  const auto head = nlohmann::json::parse(text.substr(0, text.find('\n')));
  CHECK(head["format"] == "warpreg-vectors");
  CHECK(head["seed"] == "0x0000000000000010");
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  CHECK(lines == head["count"].get<size_t>() + 1);

  const std::string memh_path = (scratch / "srp.memh").string();
  const Outcome m =
      run_warpreg(scratch, "vectors regmutex -n 20 --seed 16 --out '" + memh_path + "'");
  INFO(m);
  REQUIRE(m.status == 0);
  const std::string memh = slurp(memh_path);
  CHECK(memh.rfind("// {\"format\":\"warpreg-vectors\"", 0) == 0);
  CHECK(contains(memh, "] srp_bitmask\n"));
  const Outcome stdout_memh = run_warpreg("vectors regmutex -n 20 --seed 16 --format memh");
  CHECK(stdout_memh.out == memh);
}
