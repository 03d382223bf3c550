// The host side every app's kernel shares (its programs in the three modes);
// the apps themselves live in apps/, one file each.
#include "frameworks/bigkernel/app_kernel.h"

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/kmeans_particles/particles_format.h"
#include "frameworks/workloads/mastercard/mastercard_format.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/opinion_finder/opinion_format.h"
#include "harness/core/errors.h"

namespace harness::bigkernel {
namespace {

const char* mode_name(Mode m) {
  return m == Mode::plain ? "plain" : m == Mode::addrgen ? "addrgen" : "compute";
}

}  // namespace

void AppKernel::prepare(backend::Device& device, blocks::BufferPool& pool, const Params& params,
                        const std::uint8_t* input, std::size_t size,
                        const std::vector<Mode>& modes) {
  device_ = &device;
  pool_ = &pool;
  unused_ = &pool.get("bk.unused", 8);
  kernels_.assign(3, backend::Kernel());
  programs_.clear();
  for (Mode m : modes) {
    const bool sl1 = sl1_ && m == Mode::compute;
    backend::ProgramSource src = program_source(
        "bigkernel/" + app() + "/" + mode_name(m) + (sl1 ? "-sl1" : ""), {source_file()});
    src.opencl_options = m == Mode::plain     ? "-DBK_MODE_PLAIN=1"
                         : m == Mode::addrgen ? "-DBK_MODE_ADDRGEN=1"
                         : sl1                ? "-DBK_MODE_COMPUTE=1 -DBK_SL1=1"
                                              : "-DBK_MODE_COMPUTE=1";
    programs_.push_back(device.build(src));
    kernels_[static_cast<int>(m)] = programs_.back()->kernel(kernel_name());
  }
  prepare_app(params, input, size);
}

void AppKernel::bind(backend::Device& device, const Params& params, const std::uint8_t* input,
                     std::size_t size) {
  records_ = make_records(device, params, input, size);
}

RecordTable AppKernel::make_records(backend::Device&, const Params&, const std::uint8_t*,
                                    std::size_t size) {
  return RecordTable::fixed(record_bytes(), size);
}

backend::Kernel AppKernel::any_program_kernel(const std::string& name) const {
  return programs_.at(0)->kernel(name);
}

const backend::Kernel& AppKernel::kernel(Mode mode) const {
  return kernels_.at(static_cast<int>(mode));
}

std::unique_ptr<AppKernel> make_app_kernel(const std::string& app) {
  if (app == workloads::kmeans_particles::kApp) return make_kmeans_particles_kernel();
  if (app == workloads::netflix::kApp) return make_netflix_kernel();
  if (app == workloads::opinion::kName) return make_opinion_finder_kernel();
  if (app == workloads::dna::kName) return make_dna_assembly_kernel();
  if (app == "wc") return make_wc_kernel();
  if (app == workloads::mastercard::kApp) return make_mastercard_kernel(false);
  if (app == workloads::mastercard::kIndexedApp) return make_mastercard_kernel(true);
  throw UsageError(
      "bigkernel runs kmeans-particles, netflix, opinion-finder, dna-assembly, wc, mastercard and "
      "mastercard-indexed, not " +
      app);
}

std::vector<std::string> app_names() {
  return {workloads::kmeans_particles::kApp,
          workloads::netflix::kApp,
          workloads::opinion::kName,
          workloads::dna::kName,
          "wc",
          workloads::mastercard::kApp,
          workloads::mastercard::kIndexedApp};
}

}  // namespace harness::bigkernel
