// The CPU MapReduce runtime specialized for similarity.
#define CPU_APP similarity
#include "frameworks/mapreduce/cpu/cpu_app.inc"
