// Included inside an app's namespace after the app's user functions: the CPU
// MapReduce runtime specialized for that app. An app with a fast path
// defines CPU_APP_FAST_MAP as its class: cut() moves a chunk boundary to where
// the app's map may start, and map() maps the chunks of bytes a thread takes
// into its tables (word_count_map.h) or, for a map-only app, its pairs
// (string_match_map.h). Records and bytes are mapped in chunks taken by
// whichever thread is free (chunk_queue.h).

class CpuMapReduce final : public ::harness::mapreduce::Runtime {
 public:
  explicit CpuMapReduce(const ::harness::cpu::Options& options)
      : threads_(::harness::cpu::resolve_threads(options.threads)), fast_path_(options.fast_path) {}

  std::string name() const override { return "cpu"; }

  ::harness::mapreduce::RunResult run(const ::harness::apps::MapReduceApp& app,
                                      const std::uint8_t* input, std::size_t size) override {
    ::harness::Stopwatch host;
    ::harness::mapreduce::PreparedInput& in = prepared_input_;
    if (fast()) {  // the fast path reads the input in chunks of its own: no record split
      ::harness::apps::check_input_size(app, size);
      in.data = input;
      in.size = size;
      in.offsets.clear();
      in.side = app.side_data(app_params(), input, size);
    } else {
      ::harness::mapreduce::preprocess_into(app, app_params(), input, size, in);
    }
    const double preprocess_ms = host.elapsed_ms();
    ::harness::mapreduce::RunResult result =
        fast() ? run_part(app, in, Part{0, 0, 0, size}) : run_records(app, in, 0, in.records());
    result.measurement.total_ms += preprocess_ms;
    auto& phases = result.measurement.phases;
    phases.insert(phases.begin(), {"preprocess", preprocess_ms});
    return result;
  }

  // Records [first, last) of a preprocessed input (co-processing runs the
  // rest elsewhere). The fast path maps their bytes: a record boundary is
  // always a place where its map may start.
  ::harness::mapreduce::RunResult run_records(const ::harness::apps::MapReduceApp& app,
                                              const ::harness::mapreduce::PreparedInput& in,
                                              std::uint32_t first, std::uint32_t last) override {
    return run_part(app, in, Part{first, last, in.offsets[first], in.offsets[last]});
  }

 private:
#ifdef CPU_APP_FAST_MAP
  using FastMap = CPU_APP_FAST_MAP;
#else
  using FastMap = ::harness::cpu::NoFastMap;
#endif
  static constexpr bool has_fast_path = !std::is_same_v<FastMap, ::harness::cpu::NoFastMap>;
  // The fast path's chunks: large enough that cutting them costs nothing.
  static constexpr std::size_t kMinFastChunkBytes = std::size_t{64} << 10;

  // What one run maps: records [first, last), whose bytes are [begin, end)
  // (the fast path of a whole input knows only the bytes).
  struct Part {
    std::size_t first, last, begin, end;
  };
  using Job = ::harness::mapreduce::PreparedInput;

  bool fast() const { return has_fast_path && fast_path_; }

  // One timed run from the preprocessed input to the output pairs in memory.
  ::harness::mapreduce::RunResult run_part(const ::harness::apps::MapReduceApp& app, const Job& job,
                                           const Part& part) {
    ::harness::mapreduce::RunResult result;
    auto& phases = result.measurement.phases;
    ::harness::Stopwatch total, phase;
    // Map work (bytes or records) in chunks, taken by whichever thread is free.
    using ::harness::cpu::ChunkQueue;
    const std::size_t records = part.last - part.first, bytes = part.end - part.begin;
    ChunkQueue queue(fast() ? bytes : records,
                     fast() ? ChunkQueue::chunk_for(bytes, threads_, kMinFastChunkBytes)
                            : ChunkQueue::chunk_for(records, threads_, 1));
    std::vector<std::uint64_t> emitted(threads_);  // intermediate pairs, per thread
#if APP_HAS_REDUCE
    std::vector<std::vector<Partition>> tables = map_to_tables(job, part, queue, emitted);
    phases.push_back({"map", phase.elapsed_ms()});
    phase.restart();
    std::vector<::harness::cpu::PairStore<APP_OUT_T>> outputs = merge_reduce(job, tables);
    phases.push_back({"merge_reduce", phase.elapsed_ms()});
#else
    std::vector<::harness::cpu::PairStore<APP_VAL_T>> outputs =
        map_to_pairs(job, part, queue, emitted);
    phases.push_back({"map", phase.elapsed_ms()});
#endif
    result.measurement.total_ms = total.elapsed_ms();

    std::size_t pairs = 0;
    for (const auto& out : outputs) pairs += out.size();
    result.output = to_key_value_list(outputs, pairs);
    order_output(app, result.output);
    std::uint64_t intermediate = 0;
    for (std::uint64_t n : emitted) intermediate += n;
    if (!fast() || records) result.work.items("records", records);  // known unless fast on all
    result.work.items("intermediate_pairs", intermediate).reads(::harness::level::host, bytes);
    if (APP_HAS_REDUCE) result.measurement.counters["distinct_keys"] = static_cast<double>(pairs);
    result.measurement.counters["threads"] = threads_;
    result.measurement.counters["fast_path"] = fast() ? 1 : 0;
    return result;
  }

  // The harness's list of output strings (untimed). Each store's strings are
  // made on a thread of their own, as they were emitted: freeing millions of
  // them later (a chained app frees a job's output during the next job) then
  // leaves the main thread's heap as it was, instead of costing the next
  // job's large allocations a consolidation of all those chunks.
  template <class Store>
  static ::harness::apps::KeyValueList to_key_value_list(const std::vector<Store>& outputs,
                                                         std::size_t pairs) {
    // Each store's list on cache lines of its own (per_worker.h).
    ::harness::PerWorker<::harness::apps::KeyValueList> parts(
        static_cast<unsigned>(outputs.size()));
    ::harness::cpu::parallel_for(parts.size(), [&](unsigned i) {
      parts[i].reserve(outputs[i].size());
      outputs[i].append_to(parts[i]);
    });
    ::harness::apps::KeyValueList list;
    list.reserve(pairs);
    for (auto& part : parts.take()) std::move(part.begin(), part.end(), std::back_inserter(list));
    return list;
  }

  static EmitCtx context(const Job& job) {
    EmitCtx ctx;
    ctx.side = job.side.data();
    ctx.side_size = static_cast<u32>(job.side.size());
    return ctx;
  }

  // Calls app_map on every record of the chunks this thread takes.
  static void map_records(const Job& job, const Part& part, ::harness::cpu::ChunkQueue& queue,
                          EmitCtx& ctx) {
    std::size_t begin, end;
    while (queue.next(begin, end)) {
      for (std::size_t r = part.first + begin; r < part.first + end; ++r) {
        app_map(&ctx, job.data, job.offsets[r], job.offsets[r + 1]);
      }
    }
  }

  // The fast path's chunks: next(begin, end) takes the queue's next chunk of
  // bytes and cuts it where the app's map may start.
  static auto byte_chunks(const Job& job, const Part& part, ::harness::cpu::ChunkQueue& queue) {
    return [&job, &part, &queue](std::size_t& begin, std::size_t& end) {
      if (!queue.next(begin, end)) return false;
      begin = FastMap::cut(job.data, job.size, part.begin + begin);
      end = FastMap::cut(job.data, job.size, part.begin + end);
      return true;
    };
  }

#if APP_HAS_REDUCE
  // Map into each thread's tables, one per partition (partitions = threads).
  std::vector<std::vector<Partition>> map_to_tables(const Job& job, const Part& part,
                                                    ::harness::cpu::ChunkQueue& queue,
                                                    std::vector<std::uint64_t>& emitted) const {
    std::vector<std::vector<Partition>> tables(threads_, std::vector<Partition>(threads_));
    ::harness::cpu::parallel_for(threads_, [&](unsigned w) {
      if (fast()) {
        emitted[w] = FastMap::map(job.data, job.size, byte_chunks(job, part, queue), tables[w],
                                  &merge_values);
        return;
      }
      EmitCtx ctx = context(job);
      ctx.partitions = &tables[w];
      map_records(job, part, queue, ctx);
      flush_emits(&ctx);
      emitted[w] = ctx.emitted;
    });
    return tables;
  }

  // One task per partition: merges every thread's table of it into the
  // largest one, then calls app_reduce on each key.
  std::vector<::harness::cpu::PairStore<APP_OUT_T>> merge_reduce(
      const Job& job, std::vector<std::vector<Partition>>& tables) const {
    const auto parts = static_cast<unsigned>(tables.front().size());
    // Each partition's pairs on cache lines of their own (per_worker.h).
    ::harness::PerWorker<::harness::cpu::PairStore<APP_OUT_T>> outputs(parts);
    ::harness::cpu::parallel_for(parts, [&](unsigned p) {
      unsigned largest = 0;
      for (unsigned w = 1; w < threads_; ++w) {
        if (tables[w][p].size() > tables[largest][p].size()) largest = w;
      }
      Partition merged = std::move(tables[largest][p]);
      for (unsigned w = 0; w < threads_; ++w) {
        if (w != largest) merged.merge(tables[w][p], &merge_values);
      }
      EmitCtx ctx = context(job);
      ctx.out = &outputs[p];
      outputs[p].reserve(merged.size(), merged.key_bytes());
      merged.for_each([&](typename Partition::Entry& e) {
#if APP_HAS_COMBINE
        ValueList values{&e.value, 1};
#else
        ValueList values{e.value.data(), static_cast<u32>(e.value.size())};
#endif
        char buf[::harness::cpu::PackedKey::kInlineBytes];
        const std::string_view key = merged.key(e, buf);
        app_reduce(&ctx, reinterpret_cast<const uchar*>(key.data()), static_cast<u32>(key.size()),
                   &values);
      });
    });
    return outputs.take();
  }

  // Adds `from` to a key's value `into` (just created when `inserted`).
  static void merge_values(Slot& into, Slot& from, bool inserted) {
#if APP_HAS_COMBINE
    into = inserted ? from : app_combine(into, from);
#else
    if (inserted) {
      into = std::move(from);
    } else {
      into.insert(into.end(), from.begin(), from.end());
    }
#endif
  }
#else
  // Map-only: each thread's pairs are its part of the output.
  std::vector<::harness::cpu::PairStore<APP_VAL_T>> map_to_pairs(
      const Job& job, const Part& part, ::harness::cpu::ChunkQueue& queue,
      std::vector<std::uint64_t>& emitted) const {
    // Each thread's pairs on cache lines of their own (per_worker.h).
    ::harness::PerWorker<::harness::cpu::PairStore<APP_VAL_T>> outputs(threads_);
    ::harness::cpu::parallel_for(threads_, [&](unsigned w) {
      if (fast()) {
        emitted[w] = FastMap::map(job.data, job.size, byte_chunks(job, part, queue),
                                  job.side.data(), job.side.size(), outputs[w]);
        return;
      }
      EmitCtx ctx = context(job);
      ctx.out = &outputs[w];
      map_records(job, part, queue, ctx);
      emitted[w] = ctx.emitted;
    });
    return outputs.take();
  }
#endif

  unsigned threads_;
  bool fast_path_;
};
