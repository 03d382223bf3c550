// A filter's description: static rates, the stateful flag and its work.
//
// A stateless filter's work is a function written once in the portable
// dialect (kernels/*.clh): `void f(in, out, iparams, fparams)` where `in`
// points at the filter's peek window (peek items, of which it consumes pop),
// `out` at the push items it produces, and the parameter arrays are the
// filter's constants (taps, tables, keys). The same function is bound here
// for the CPU executor and named (function + file) for the GPU code
// generator. A stateful filter (sources, sinks) runs on the CPU only, so its
// work is a host callable that keeps its own state.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace harness::streamgraph {

// Every channel of a graph carries 32-bit items of one type.
enum class ItemType { f32, u32 };
constexpr std::uint64_t kItemBytes = 4;
const char* item_type_name(ItemType t);

// The host signature of a dialect work function (SG_CHANNEL and CONSTANT_PTR
// are empty or const on the host).
template <class T>
using KernelFn = void (*)(const T* in, T* out, const std::uint32_t* iparams, const float* fparams);

// What the GPU code generator needs to call the work function.
struct KernelRef {
  std::string function;  // e.g. "sg_bitonic_compare"
  std::string
      source;  // repository-relative .clh, e.g. "frameworks/streamgraph/kernels/bitonic.clh"
  std::vector<std::uint32_t> iparams;
  std::vector<float> fparams;
};

// The CPU executor's binding: one firing reads the peek window, writes push
// items. Exactly one member is set, the one of the graph's item type.
struct HostWork {
  std::function<void(const float* in, float* out)> f32;
  std::function<void(const std::uint32_t* in, std::uint32_t* out)> u32;

  template <class T>
  std::function<void(const T*, T*)>& get() {
    if constexpr (std::is_same_v<T, float>) {
      return f32;
    } else {
      return u32;
    }
  }
  template <class T>
  const std::function<void(const T*, T*)>& get() const {
    if constexpr (std::is_same_v<T, float>) {
      return f32;
    } else {
      return u32;
    }
  }
};

struct FilterSpec {
  std::string name;
  int pop = 0;
  int peek = 0;  // at least pop; peek - pop items stay in the channel between firings
  int push = 0;
  bool stateful = false;
  std::optional<KernelRef> kernel;  // set for every stateless filter
  HostWork work;
  // Operations per firing for the partitioner's time estimate; 0: peek + push.
  double cost = 0;
};

// A stateless filter running `fn` (a dialect work function) with constants.
template <class T>
FilterSpec kernel_filter(std::string name, int pop, int peek, int push, KernelFn<T> fn,
                         std::string function, std::string source,
                         std::vector<std::uint32_t> iparams = {}, std::vector<float> fparams = {}) {
  FilterSpec f;
  f.name = std::move(name);
  f.pop = pop;
  f.peek = peek;
  f.push = push;
  f.kernel =
      KernelRef{std::move(function), std::move(source), std::move(iparams), std::move(fparams)};
  // The binding owns copies of the constants so the spec can be moved freely.
  f.work.get<T>() = [fn, ip = f.kernel->iparams, fp = f.kernel->fparams](const T* in, T* out) {
    fn(in, out, ip.data(), fp.data());
  };
  return f;
}

// A stateful host filter (a source, a sink, or anything that keeps state).
template <class T>
FilterSpec stateful_filter(std::string name, int pop, int peek, int push,
                           std::function<void(const T*, T*)> work) {
  FilterSpec f;
  f.name = std::move(name);
  f.pop = pop;
  f.peek = peek;
  f.push = push;
  f.stateful = true;
  f.work.get<T>() = std::move(work);
  return f;
}

template <class T>
constexpr ItemType item_type_of() {
  return std::is_same_v<T, float> ? ItemType::f32 : ItemType::u32;
}

// Passes a dialect work function (included into namespace
// harness::streamgraph::kernels) with its name: SG_KERNEL(sg_identity).
#define SG_KERNEL(fn) &::harness::streamgraph::kernels::fn, #fn

}  // namespace harness::streamgraph
