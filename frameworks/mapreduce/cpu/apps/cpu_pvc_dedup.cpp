// The CPU MapReduce runtime specialized for pvc_dedup.
#define CPU_APP pvc_dedup
#include "frameworks/mapreduce/cpu/cpu_app.inc"
