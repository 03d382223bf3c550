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

// An emitted pair waiting for its table insertion (see emit_intermediate_g).
struct PendingPair {
  ::harness::cpu::PackedKey key;
  std::size_t bytes_off = 0;  // a long key's bytes in EmitCtx::pending_bytes
  APP_VAL_T val;
};
#endif

struct EmitCtx {
  const uchar* side = nullptr;  // the app's side data (MapReduceApp::side_data), read-only
  u32 side_size = 0;
  std::uint64_t emitted = 0;  // intermediate pairs emitted by this thread
#if APP_HAS_REDUCE
  std::vector<Partition>* partitions = nullptr;  // map: this thread's tables, one per partition
  // Pairs emitted and not inserted yet: their slots are being prefetched.
  ::harness::cpu::PrefetchBatch<PendingPair, 32> pending;
  std::vector<char> pending_bytes;                      // the normalized bytes of long keys
  ::harness::cpu::PairStore<APP_OUT_T>* out = nullptr;  // reduce output
#else
  ::harness::cpu::PairStore<APP_VAL_T>* out = nullptr;  // map output: this thread's pairs
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

// Whether the app's key normalization leaves every byte as it is (then keys
// are copied with memcpy).
constexpr bool key_bytes_as_is() {
  for (unsigned c = 0; c < 256; ++c) {
    if (APP_KEY_BYTE(static_cast<uchar>(c)) != static_cast<uchar>(c)) return false;
  }
  return true;
}

// Writes the normalized key (APP_KEY_BYTE of each byte) to `out`.
DEVICE_FN void normalize_key(const uchar* key, u32 len, char* out) {
  if constexpr (key_bytes_as_is()) {
    if (len) std::memcpy(out, key, len);
  } else {
    for (u32 i = 0; i < len; ++i) out[i] = static_cast<char>(APP_KEY_BYTE(key[i]));
  }
}

#if APP_HAS_REDUCE
struct ValueList {
  const APP_VAL_T* values;
  u32 count;
};

DEVICE_FN u32 value_count(ValueList* values) { return values->count; }
DEVICE_FN APP_VAL_T value_at(ValueList* values, u32 j) { return values->values[j]; }

// Inserts one pair into this thread's tables (its value combined with the
// key's, or appended to the key's list).
DEVICE_FN void insert_pair(EmitCtx* ctx, Partition& part, PendingPair& p) {
  if (!p.key.is_inline()) p.key.bytes = ctx->pending_bytes.data() + p.bytes_off;
  bool inserted = false;
  Slot& slot = part.upsert(p.key, inserted);
#if APP_HAS_COMBINE
  slot = inserted ? p.val : app_combine(slot, p.val);
#else
  slot.push_back(p.val);
#endif
}

DEVICE_FN Partition& partition_of(EmitCtx* ctx, std::uint64_t hash) {
  std::vector<Partition>& parts = *ctx->partitions;
  return parts[Partition::partition(hash, static_cast<unsigned>(parts.size()))];
}

// Inserts the waiting pairs.
DEVICE_FN void flush_emits(EmitCtx* ctx) {
  ctx->pending.drain([ctx](PendingPair& p) { insert_pair(ctx, partition_of(ctx, p.key.hash), p); });
  ctx->pending_bytes.clear();
}

// A pair whose table is larger than a cache waits: its slot is prefetched now
// and it is inserted when a batch of such pairs has gathered (flush_emits,
// prefetch_batch.h), so the cache misses of keys not seen lately overlap.
// Pairs for small tables (a few keys) go in at once.
DEVICE_FN void emit_intermediate_g(EmitCtx* ctx, const uchar* key, u32 len, APP_VAL_T val) {
  ++ctx->emitted;
  PendingPair& p = ctx->pending.next();  // built in place, kept if it waits
  p.val = val;
  if (len <= ::harness::cpu::PackedKey::kInlineBytes) {
    char bytes[::harness::cpu::PackedKey::kInlineBytes];
    normalize_key(key, len, bytes);
    p.key = ::harness::cpu::pack_key(bytes, len);
  } else {
    p.bytes_off = ctx->pending_bytes.size();
    ctx->pending_bytes.resize(p.bytes_off + len);
    char* bytes = ctx->pending_bytes.data() + p.bytes_off;
    normalize_key(key, len, bytes);
    p.key = ::harness::cpu::pack_long_key(bytes, len);  // the pointer is set again at insertion
  }
  Partition& part = partition_of(ctx, p.key.hash);
  if (part.cache_resident()) {
    insert_pair(ctx, part, p);
    if (!p.key.is_inline()) ctx->pending_bytes.resize(p.bytes_off);
    return;
  }
  part.prefetch(p.key.hash);
  if (ctx->pending.commit()) flush_emits(ctx);
}

DEVICE_FN void emit_g(EmitCtx* ctx, const uchar* key, u32 len, APP_OUT_T val) {
  char* out = ctx->out->add(len, val);
  if (len) std::memcpy(out, key, len);
}
#else
DEVICE_FN void emit_intermediate_g(EmitCtx* ctx, const uchar* key, u32 len, APP_VAL_T val) {
  ++ctx->emitted;
  normalize_key(key, len, ctx->out->add(len, val));
}
#endif
#define emit_intermediate_p emit_intermediate_g
