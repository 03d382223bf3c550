// The CPU MapReduce runtime specialized for wordcount, with its fast path.
#include "frameworks/cpu/word_count_map.h"
#define CPU_APP wordcount
#define CPU_APP_FAST_MAP ::harness::cpu::WordCountMap
#include "frameworks/cpu/cpu_app.inc"
