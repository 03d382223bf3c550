// The CPU MapReduce runtime specialized for kmeans.
#define CPU_APP kmeans
#include "frameworks/mapreduce/cpu/cpu_app.inc"
