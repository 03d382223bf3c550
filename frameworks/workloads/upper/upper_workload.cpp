// Upper (S-L1's stress case that writes, thesis section 5.3): a text's
// lower-case ASCII letters made upper case, in place; every other byte
// (UTF-8 sequences included) unchanged.
#include <cstring>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/outputs.h"
#include "harness/core/cuts.h"
#include "harness/core/parallel.h"

namespace harness::workloads {
namespace {

bool is_lower(std::uint8_t c) { return c >= 'a' && c <= 'z'; }

class Upper final : public Workload {
 public:
  std::string name() const override { return "upper"; }
  std::string description() const override {
    return "lower-case ASCII letters of a text to upper case, in place (the output is the text)";
  }
  std::string default_dataset() const override { return "text-zipf"; }
  std::string record_type() const override { return "variable"; }
  std::string chapters() const override { return "ch5"; }
  bool modifies_input() const override { return true; }

  void check_input(const std::uint8_t*, std::size_t) const override {}  // any bytes are a text

  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    auto out = std::make_unique<BytesOutput>(size);
    for (std::size_t i = 0; i < size; ++i)
      out->data()[i] = is_lower(data[i]) ? static_cast<std::uint8_t>(data[i] - 'a' + 'A') : data[i];
    return out;
  }

  std::unique_ptr<Output> run_cpu(const Params& params, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    auto out = std::make_unique<BytesOutput>(size);
    std::memcpy(out->data(), data, size);
    run_cpu_in_place(params, out->data(), size, threads);
    return out;
  }

  // Branch-free per byte, so the compiler vectorizes the loop; each thread
  // rewrites its own piece. The loop reads a local copy of the pointer: byte
  // stores may alias the lambda's captured one, which would otherwise be
  // reloaded after every store (and the loop left scalar).
  std::unique_ptr<Output> run_cpu_in_place(const Params&, std::uint8_t* data, std::size_t size,
                                           unsigned threads) const override {
    const auto cuts = even_cuts(size, threads);
    parallel_for(threads, [&](unsigned t) {
      std::uint8_t* const text = data;
      const std::size_t end = cuts[t + 1];
      for (std::size_t i = cuts[t]; i < end; ++i) {
        const std::uint8_t c = text[i];
        const auto lower = static_cast<std::uint8_t>(static_cast<std::uint8_t>(c - 'a') < 26);
        text[i] = static_cast<std::uint8_t>(c - static_cast<std::uint8_t>(lower << 5));
      }
    });
    return std::make_unique<BytesOutput>(data, size);
  }

  // Every byte is read; the lower-case letters are written.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    AccessMap map(size);
    map.read(0, size);
    for (std::size_t i = 0; i < size; ++i) {
      if (is_lower(data[i])) map.write(i, 1);
    }
    return map.share(1);
  }
};

}  // namespace

const Workload& upper_workload() {
  static const Upper w;
  return w;
}

}  // namespace harness::workloads
