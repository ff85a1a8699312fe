// Expected CPU-path status: needs_gpu (compiles; on a GPU: accepted).
// Tree reduction per block with sequential addressing (lectures 3.2, 3.4, 3.5), each block
// handling 2 * BLOCK elements (first add during load), then one atomicAdd per block.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float sdata[BLOCK];
    int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * (2 * BLOCK) + tid;
    float v = 0.0f;
    if (i < n) v += x[i];
    if (i + BLOCK < n) v += x[i + BLOCK];
    sdata[tid] = v;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, sdata[0]);
}

extern "C" void sum_reduction(const float* x, float* out, int n) {
    int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
    cudaMemsetAsync(out, 0, sizeof(float), 0);  // the harness fills out with NaN
    block_sum<<<blocks, BLOCK>>>(x, out, n);
}
