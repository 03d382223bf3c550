// Included inside an app's namespace after <app>_types.clh (see
// cpu/apps/cpu_wordcount.cpp): the host emit API the app's functions call.
// No standard headers here (cpu_runtime.h brought them in, outside the namespace).

#if APP_HAS_REDUCE
#if APP_HAS_COMBINE
using Slot = APP_VAL_T;  // values combined as they are emitted
#else
using Slot = std::vector<APP_VAL_T>;
#endif
using Partition = ::harness::cpu::FlatTable<Slot>;
#else
// Map-only apps: each thread appends its pairs, keys in one arena.
struct MapPair {
  std::uint64_t key_off;
  u32 key_len;
  APP_VAL_T val;
};
#endif

struct EmitCtx {
  const uchar* side = nullptr;  // the app's side data (MapReduceApp::side_data), read-only
  u32 side_size = 0;
#if APP_HAS_REDUCE
  std::vector<Partition>* partitions = nullptr;  // map: this thread's tables, one per partition
  std::string scratch;                           // normalized key being emitted
  std::vector<std::pair<std::string, APP_OUT_T>>* out = nullptr;  // reduce output
#else
  std::vector<char>* keys = nullptr;  // map: this thread's key bytes
  std::vector<MapPair>* pairs = nullptr;
#endif
};

// The i-th 4-byte word of the side data (copied: no alignment or aliasing assumption).
DEVICE_FN u32 side_u32(EmitCtx* ctx, u32 i) {
  u32 v;
  std::memcpy(&v, ctx->side + std::size_t{i} * 4, 4);
  return v;
}
DEVICE_FN float side_f32(EmitCtx* ctx, u32 i) {
  float v;
  std::memcpy(&v, ctx->side + std::size_t{i} * 4, 4);
  return v;
}

#if APP_HAS_REDUCE
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

DEVICE_FN void emit_g(EmitCtx* ctx, const uchar* key, u32 len, APP_OUT_T val) {
  ctx->out->emplace_back(std::string(reinterpret_cast<const char*>(key), len), val);
}
#else
DEVICE_FN void emit_intermediate_g(EmitCtx* ctx, const uchar* key, u32 len, APP_VAL_T val) {
  std::vector<char>& keys = *ctx->keys;
  const std::size_t off = keys.size();
  keys.resize(off + len);
  for (u32 i = 0; i < len; ++i) keys[off + i] = static_cast<char>(APP_KEY_BYTE(key[i]));
  ctx->pairs->push_back(MapPair{off, len, val});
}
#endif
#define emit_intermediate_p emit_intermediate_g
