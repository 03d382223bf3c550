#include "frameworks/mapreduce/common/mapreduce_program.h"

#include "frameworks/blocks/cuda_programs.h"

namespace harness::mapreduce {

backend::ProgramSource mapreduce_program(const std::string& runtime,
                                         const apps::MapReduceApp& app) {
  backend::ProgramSource src;
  src.name = runtime + "/" + app.name();
  src.opencl_files = {"harness/dialect/dialect.h", app.types_file(),
                      "frameworks/mapreduce/" + runtime + "/kernels/" + runtime + "_emit.clh",
                      app.functions_file(),
                      "frameworks/mapreduce/" + runtime + "/kernels/" + runtime + "_kernels.cl"};
  src.cuda = cuda_program(src.name);
  return src;
}

}  // namespace harness::mapreduce
