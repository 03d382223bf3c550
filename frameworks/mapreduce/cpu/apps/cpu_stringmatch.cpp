// The CPU MapReduce runtime specialized for stringmatch, with its fast path.
#include "frameworks/mapreduce/cpu/string_match_map.h"
#define CPU_APP stringmatch
#define CPU_APP_FAST_MAP ::harness::cpu::StringMatchMap
#include "frameworks/mapreduce/cpu/cpu_app.inc"
