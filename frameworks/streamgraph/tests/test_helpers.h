// Small graphs for the tests: identity-like filters with chosen rates.
#pragma once

#include <string>

#include "frameworks/streamgraph/filter.h"

namespace harness::streamgraph::testing {

// A stateless f32 filter with the given rates that copies (and zero-pads) its window.
inline FilterSpec copy_filter(const std::string& name, int pop, int push, int peek = -1) {
  FilterSpec f;
  f.name = name;
  f.pop = pop;
  f.peek = peek < 0 ? pop : peek;
  f.push = push;
  f.kernel = KernelRef{"sg_test_copy", "test", {}, {}};
  f.work.f32 = [pop, push](const float* in, float* out) {
    for (int i = 0; i < push; ++i) out[i] = i < pop ? in[i] : 0.0f;
  };
  return f;
}

inline FilterSpec source(const std::string& name, int push) {
  return stateful_filter<float>(name, 0, 0, push, [push](const float*, float* out) {
    for (int i = 0; i < push; ++i) out[i] = 1.0f;
  });
}

inline FilterSpec sink(const std::string& name, int pop) {
  return stateful_filter<float>(name, pop, pop, 0, [](const float*, float*) {});
}

}  // namespace harness::streamgraph::testing
