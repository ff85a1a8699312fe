#include <cuda_runtime.h>

// Bug: no `i < n` guard. Compiles; on a GPU the last block writes past the end.
__global__ void add_kernel(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] + y[i];
}

extern "C" void vector_add(const float* x, const float* y, float* out, int n) {
    add_kernel<<<(n + 255) / 256, 256>>>(x, y, out, n);
}
