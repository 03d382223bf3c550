// The program of one (GPU MapReduce runtime, app) pair: the dialect header, the
// app's types, the runtime's emit functions, the app's user functions and the
// runtime's kernels, in that order (frameworks/CMakeLists.txt builds the same
// list for nvcc).
#pragma once

#include "frameworks/mapreduce/apps/mapreduce_app.h"
#include "harness/backend/backend.h"

namespace harness::mapreduce {
backend::ProgramSource mapreduce_program(const std::string& runtime, const apps::MapReduceApp& app);
}
