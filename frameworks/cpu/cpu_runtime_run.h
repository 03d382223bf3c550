// Included inside an app's namespace after the app's user functions: the CPU
// MapReduce runtime specialized for that app.

class CpuMapReduce final : public ::harness::mapreduce::Runtime {
 public:
  explicit CpuMapReduce(const ::harness::cpu::Options& options)
      : threads_(::harness::cpu::resolve_threads(options.threads)) {}

  ::harness::mapreduce::RunResult run(const ::harness::apps::MapReduceApp& app,
                                      const std::uint8_t* input, std::size_t size) override {
    using ::harness::Stopwatch;
    ::harness::mapreduce::RunResult result;
    auto& phases = result.measurement.phases;
    Stopwatch total, phase;
    std::vector<std::uint32_t> offsets = app.split_records(input, size);
    const std::size_t records = offsets.size() - 1;
    const std::vector<std::uint8_t> side = app.side_data(app_params(), input, size);
    phases.push_back({"preprocess", phase.elapsed_ms()});
    auto context = [&] {
      EmitCtx ctx;
      ctx.side = side.data();
      ctx.side_size = static_cast<u32>(side.size());
      return ctx;
    };

    // Map: thread w takes a contiguous run of records.
    phase.restart();
#if APP_HAS_REDUCE
    const unsigned parts = threads_;
    std::vector<std::vector<Partition>> tables(threads_, std::vector<Partition>(parts));
    ::harness::cpu::parallel_for(threads_, [&](unsigned w) {
      EmitCtx ctx = context();
      ctx.partitions = &tables[w];
      const std::size_t begin = records * w / threads_, end = records * (w + 1) / threads_;
      for (std::size_t r = begin; r < end; ++r) app_map(&ctx, input, offsets[r], offsets[r + 1]);
    });
    phases.push_back({"map", phase.elapsed_ms()});

    // Merge each partition across threads, then reduce it.
    phase.restart();
    std::vector<std::vector<std::pair<std::string, APP_OUT_T>>> outputs(parts);
    std::uint64_t distinct = 0;
    ::harness::cpu::parallel_for(parts, [&](unsigned p) {
      Partition merged = std::move(tables[0][p]);
      for (unsigned w = 1; w < threads_; ++w) {
        tables[w][p].for_each([&](std::string_view key, std::uint64_t hash, Slot& slot) {
          bool inserted = false;
          Slot& into = merged.find_or_insert(key, hash, inserted);
#if APP_HAS_COMBINE
          into = inserted ? slot : app_combine(into, slot);
#else
          into.insert(into.end(), slot.begin(), slot.end());
#endif
        });
      }
      EmitCtx ctx = context();
      ctx.out = &outputs[p];
      outputs[p].reserve(merged.size());
      merged.for_each([&](std::string_view key, std::uint64_t, Slot& slot) {
#if APP_HAS_COMBINE
        ValueList values{&slot, 1};
#else
        ValueList values{slot.data(), static_cast<u32>(slot.size())};
#endif
        app_reduce(&ctx, reinterpret_cast<const uchar*>(key.data()), static_cast<u32>(key.size()),
                   &values);
      });
    });
    phases.push_back({"merge_reduce", phase.elapsed_ms()});
    result.measurement.total_ms = total.elapsed_ms();

    for (auto& part : outputs) {
      distinct += part.size();
      for (auto& [k, v] : part) {
        result.output.emplace_back(std::move(k),
                                   std::string(reinterpret_cast<const char*>(&v), sizeof(v)));
      }
    }
    result.measurement.counters["distinct_keys"] = static_cast<double>(distinct);
#else
    // Map-only: each thread's pairs, in record order, are its part of the output.
    std::vector<std::vector<char>> keys(threads_);
    std::vector<std::vector<MapPair>> pairs(threads_);
    ::harness::cpu::parallel_for(threads_, [&](unsigned w) {
      EmitCtx ctx = context();
      ctx.keys = &keys[w];
      ctx.pairs = &pairs[w];
      const std::size_t begin = records * w / threads_, end = records * (w + 1) / threads_;
      for (std::size_t r = begin; r < end; ++r) app_map(&ctx, input, offsets[r], offsets[r + 1]);
    });
    phases.push_back({"map", phase.elapsed_ms()});
    result.measurement.total_ms = total.elapsed_ms();

    std::size_t emitted = 0;
    for (const auto& p : pairs) emitted += p.size();
    result.output.reserve(emitted);
    for (unsigned w = 0; w < threads_; ++w) {
      for (const MapPair& p : pairs[w]) {
        result.output.emplace_back(
            std::string(keys[w].data() + p.key_off, p.key_len),
            std::string(reinterpret_cast<const char*>(&p.val), sizeof(p.val)));
      }
    }
    result.work.items("intermediate_pairs", emitted);
#endif
    ::harness::apps::sort_output(app, result.output);
    result.work.items("records", records).reads(::harness::level::host, size);
    result.measurement.counters["threads"] = threads_;
    return result;
  }

 private:
  unsigned threads_;
};
