// What the line-record apps with u32 values share (the page view jobs and
// apps): records are whole lines, output values are u32, printed in decimal.
// An app derives from this and adds its name, jobs, reference and dialect
// files (whose facts give a job's value sizes; a chained app states its final
// output's).
#pragma once

#include <string>

#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/mapreduce_app.h"
#include "frameworks/mapreduce/apps/records.h"

namespace harness::apps {

class LineCountApp : public MapReduceApp {
 public:
  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    check_input_size(*this, size);
    return split_lines(data, size);
  }
  std::string format_value(std::string_view raw) const override {
    return std::to_string(from_raw<std::uint32_t>(raw));
  }
  bool records_are_lines() const override { return true; }
  // Keys are URLs, entries or counts, never positions.
  bool splits_at_lines() const override { return true; }
};

}  // namespace harness::apps
