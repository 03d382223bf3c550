// Included inside an app's namespace after <app>_types.clh (see
// cpu/apps/cpu_wordcount.cpp): the host emit API the app's functions call.
// No standard headers here (cpu_runtime.h brought them in, outside the namespace).

struct StringViewHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

#if APP_HAS_COMBINE
using Slot = APP_VAL_T;  // values combined as they are emitted
#else
using Slot = std::vector<APP_VAL_T>;
#endif
using Partition = std::unordered_map<std::string, Slot, StringViewHash, std::equal_to<>>;

struct EmitCtx {
  std::vector<Partition>* partitions = nullptr;          // map: this thread's tables, one per partition
  std::string scratch;                                   // normalized key being emitted
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
  std::size_t h = StringViewHash{}(ctx->scratch);
  Partition& part = (*ctx->partitions)[h % ctx->partitions->size()];
  auto it = part.find(std::string_view(ctx->scratch));
#if APP_HAS_COMBINE
  if (it == part.end()) {
    part.emplace(ctx->scratch, val);
  } else {
    it->second = app_combine(it->second, val);
  }
#else
  if (it == part.end()) it = part.emplace(ctx->scratch, Slot{}).first;
  it->second.push_back(val);
#endif
}
#define emit_intermediate_p emit_intermediate_g

DEVICE_FN void emit_g(EmitCtx* ctx, const uchar* key, u32 len, APP_OUT_T val) {
  ctx->out->emplace_back(std::string(reinterpret_cast<const char*>(key), len), val);
}
