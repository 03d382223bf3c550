// The CPU MapReduce runtime specialized for pvc_count.
#define CPU_APP pvc_count
#include "frameworks/mapreduce/cpu/cpu_app.inc"
