// The CPU MapReduce runtime specialized for wordcount, with its fast path.
#include "frameworks/mapreduce/cpu/word_count_map.h"
#define CPU_APP wordcount
#define CPU_APP_FAST_MAP ::harness::cpu::WordCountMap
#include "frameworks/mapreduce/cpu/cpu_app.inc"
