// The CPU MapReduce runtime specialized for pvr_rank.
#define CPU_APP pvr_rank
#include "frameworks/mapreduce/cpu/cpu_app.inc"
