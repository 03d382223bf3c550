/* Builds the app kernels that follow in BigKernel's compute mode (CUDA programs:
 * OpenCL passes -DBK_MODE_COMPUTE=1). */
#define BK_MODE_COMPUTE 1
