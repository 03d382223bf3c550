// The work functions are written once: every stateless filter of the eight
// benchmarks, built as OpenCL C from the embedded .clh files and run on an
// OpenCL device (PoCL here) with its channels in local memory, produces what
// its host binding (the same source compiled as C++) produces.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "harness/backend/backend.h"

namespace harness::streamgraph {
namespace {

constexpr int kMaxItems = 2048;  // of the probe's local arrays

// One probe kernel per work function: copy the window into local memory,
// call the function, copy the push items out.
std::string probe_kernel(const std::string& function, ItemType type) {
  const std::string t = type == ItemType::f32 ? "float" : "u32";
  return "KERNEL probe_" + function + "(GLOBAL const " + t + "* in, GLOBAL " + t +
         "* out, CONSTANT_PTR u32* ip, CONSTANT_PTR float* fp, u32 peek, u32 push) {\n" +
         "  LOCAL_ARRAY(" + t + ", window, " + std::to_string(kMaxItems) + ");\n" +
         "  LOCAL_ARRAY(" + t + ", produced, " + std::to_string(kMaxItems) + ");\n" +
         "  if (LOCAL_ID == 0) {\n" + "    for (u32 i = 0; i < peek; ++i) window[i] = in[i];\n" +
         "    " + function + "(window, produced, ip, fp);\n" +
         "    for (u32 i = 0; i < push; ++i) out[i] = produced[i];\n" +
         "  }\n"
         "}\n";
}

TEST(StreamGraphKernels, EveryWorkFunctionRunsAsOpenClLikeOnTheHost) {
  bool compiled = false;
  for (backend::Kind k : backend::compiled_kinds()) compiled |= k == backend::Kind::opencl;
  if (!compiled) GTEST_SKIP() << "OpenCL backend not built";
  std::string why;
  const auto devices = backend::list_devices(backend::Kind::opencl, &why);
  if (devices.empty()) GTEST_SKIP() << why;
  auto device = backend::open_device(backend::Kind::opencl, devices[0].index);

  // A few filters of every benchmark, one per distinct (function, rates, constants).
  std::vector<Benchmark> benches;
  for (const BenchmarkInfo& info : benchmark_list())
    benches.push_back(make_benchmark(info.name, info.small_n[2]));
  std::set<std::string> sources;
  std::map<std::string, ItemType> functions;
  for (const Benchmark& b : benches) {
    for (const Node& n : b.graph.nodes()) {
      if (n.kind != NodeKind::filter || !n.filter.kernel) continue;
      sources.insert(n.filter.kernel->source);
      functions[n.filter.kernel->function] = b.graph.item_type();
    }
  }
  backend::ProgramSource src;
  src.name = "streamgraph/work-functions";
  src.opencl_files = {"harness/dialect/dialect.h", "frameworks/streamgraph/kernels/sg_work.clh"};
  src.opencl_files.insert(src.opencl_files.end(), sources.begin(), sources.end());
  for (const auto& [function, type] : functions) src.opencl_text += probe_kernel(function, type);
  auto program = device->build(src);

  auto& queue = device->queue();
  int checked = 0;
  std::set<std::string> tried;
  for (const Benchmark& b : benches) {
    for (const Node& n : b.graph.nodes()) {
      if (n.kind != NodeKind::filter || !n.filter.kernel) continue;
      const KernelRef& k = *n.filter.kernel;
      // Distinct enough: one filter per function and rates per benchmark.
      const std::string key =
          b.name + k.function + std::to_string(n.filter.peek) + std::to_string(n.filter.push);
      if (!tried.insert(key).second) continue;
      SCOPED_TRACE(b.name + ": " + n.name);
      ASSERT_LE(n.filter.peek, kMaxItems);
      ASSERT_LE(n.filter.push, kMaxItems);
      const auto peek = static_cast<std::size_t>(n.filter.peek);
      const auto push = static_cast<std::size_t>(n.filter.push);
      std::vector<std::uint32_t> in(peek);
      std::vector<std::uint32_t> host_out(push);
      std::vector<std::uint32_t> device_out(push);
      if (b.graph.item_type() == ItemType::f32) {
        std::vector<float> fin(peek), fout(push);
        for (std::size_t i = 0; i < peek; ++i) fin[i] = input_f32(7, i);
        std::memcpy(in.data(), fin.data(), peek * 4);
        n.filter.work.f32(fin.data(), fout.data());
        std::memcpy(host_out.data(), fout.data(), push * 4);
      } else {
        for (std::size_t i = 0; i < peek; ++i) in[i] = input_u32(7, i) & 1u;  // DES carries bits
        if (k.function == "sg_des_bits_from_words") in = {input_u32(7, 0), input_u32(7, 1)};
        n.filter.work.u32(in.data(), host_out.data());
      }
      backend::Buffer din = device->allocate(peek * 4 + 4);
      backend::Buffer dout = device->allocate(push * 4 + 4);
      backend::Buffer dip = device->allocate(k.iparams.size() * 4 + 4);
      backend::Buffer dfp = device->allocate(k.fparams.size() * 4 + 4);
      queue.write(din, 0, in.data(), peek * 4);
      if (!k.iparams.empty()) queue.write(dip, 0, k.iparams.data(), k.iparams.size() * 4);
      if (!k.fparams.empty()) queue.write(dfp, 0, k.fparams.data(), k.fparams.size() * 4);
      queue.launch(program->kernel("probe_" + k.function), backend::LaunchShape{1, 1}, din, dout,
                   dip, dfp, static_cast<std::uint32_t>(peek), static_cast<std::uint32_t>(push));
      queue.read(device_out.data(), dout, 0, push * 4);
      queue.finish();
      for (std::size_t i = 0; i < push; ++i) {
        if (b.graph.item_type() == ItemType::u32) {
          EXPECT_EQ(device_out[i], host_out[i]) << "item " << i;
        } else {
          float got = 0, want = 0;
          std::memcpy(&got, &device_out[i], 4);
          std::memcpy(&want, &host_out[i], 4);
          EXPECT_NEAR(got, want, 1e-5 * (1 + std::fabs(want))) << "item " << i;
        }
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace harness::streamgraph
