#include <cuda_runtime.h>

__global__ void add_kernel(const float* __restrict__ x, const float* __restrict__ y,
                           float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = x[i] + y[i];
    }
}

extern "C" void vector_add(const float* x, const float* y, float* out, int n) {
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    add_kernel<<<blocks, threads>>>(x, y, out, n);
}
