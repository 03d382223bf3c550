// A timed span of a device queue that an error cannot leave open: if the
// scope is left without end() (an exception: a RunError for a limit, a full
// table), the destructor closes it and drops the failed run's spans, so the
// device's queue serves the next run as if the failed one had not started.
#pragma once

#include <string>

#include "harness/backend/backend.h"

namespace harness::mapreduce {

class ScopedSpan {
 public:
  ScopedSpan(backend::Queue& q, const std::string& name) : q_(q) { q_.begin_span(name); }
  ScopedSpan(const ScopedSpan&) = delete;
  ScopedSpan& operator=(const ScopedSpan&) = delete;
  ~ScopedSpan() {
    if (!open_) return;
    try {
      q_.end_span();
      q_.take_spans();
    } catch (...) {  // already failing: the first error is the one to report
    }
  }
  void end() {
    open_ = false;
    q_.end_span();
  }

 private:
  backend::Queue& q_;
  bool open_ = true;
};

}  // namespace harness::mapreduce
