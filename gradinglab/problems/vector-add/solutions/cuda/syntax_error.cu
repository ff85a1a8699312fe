#include <cuda_runtime.h>

__global__ void add_kernel(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = x[i] + y[i]
    }
}

extern "C" void vector_add(const float* x, const float* y, float* out, int n) {
    add_kernel<<<(n + 255) / 256, 256>>>(x, y, out, n);
}
