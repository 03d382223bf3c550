// Included inside an app's namespace after <app>_types.clh (see
// cpu/apps/cpu_wordcount.cpp): the host emit API the app's functions call.
// No standard headers here (cpu_runtime.h brought them in, outside the namespace).

#if APP_HAS_COMBINE
using Slot = APP_VAL_T;  // values combined as they are emitted
#else
using Slot = std::vector<APP_VAL_T>;
#endif
using Partition = ::harness::cpu::FlatTable<Slot>;

struct EmitCtx {
  std::vector<Partition>* partitions = nullptr;  // map: this thread's tables, one per partition
  std::string scratch;                           // normalized key being emitted
  std::vector<std::pair<std::string, APP_OUT_T>>* out = nullptr;  // reduce output
};

struct ValueList {
  const APP_VAL_T* values;
  u32 count;
};

DEVICE_FN u32 value_count(ValueList* values) { return values->count; }
DEVICE_FN APP_VAL_T value_at(ValueList* values, u32 j) { return values->values[j]; }

DEVICE_FN void emit_intermediate_g(EmitCtx* ctx, const uchar* key, u32 len, APP_VAL_T val) {
  ctx->scratch.resize(len);
  for (u32 i = 0; i < len; ++i) ctx->scratch[i] = static_cast<char>(APP_KEY_BYTE(key[i]));
  const std::uint64_t h = ::harness::cpu::hash_bytes(ctx->scratch.data(), len);
  Partition& part = (*ctx->partitions)[(h >> 48) % ctx->partitions->size()];
  bool inserted = false;
  Slot& slot = part.find_or_insert(ctx->scratch, h, inserted);
#if APP_HAS_COMBINE
  slot = inserted ? val : app_combine(slot, val);
#else
  slot.push_back(val);
#endif
}
#define emit_intermediate_p emit_intermediate_g

DEVICE_FN void emit_g(EmitCtx* ctx, const uchar* key, u32 len, APP_OUT_T val) {
  ctx->out->emplace_back(std::string(reinterpret_cast<const char*>(key), len), val);
}
