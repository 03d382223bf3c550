// Inputs every MapReduce runtime must get right: edge cases plus generated text.
#pragma once

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "datasets/dataset.h"

namespace harness::testing {

inline std::vector<std::pair<std::string, std::string>> mapreduce_inputs() {
  std::vector<std::pair<std::string, std::string>> inputs = {
      {"empty", ""},
      {"no_words", "1234 5678 ... !!! \n\n\xc3\xa9\xc3\xa9\n"},
      {"one_word", "hello"},
      {"mixed_case_and_utf8", "Hello, HELLO hello! caf\xc3\xa9 Caf\xc3\xa9; x1y2z3\n"},
      {"long_word", std::string(9000, 'q') + " end " + std::string(5000, 'Q') + "\n"},
  };
  std::ostringstream text;
  datasets::find_generator("text-zipf").generate(300000, 3, text);
  inputs.emplace_back("zipf_300KB", text.str());
  return inputs;
}

}  // namespace harness::testing
