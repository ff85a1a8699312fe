// Starter for sum-reduction (CUDA). Keep the extern "C" entry point; launch on the default stream.
#include <cuda_runtime.h>

#define BLOCK 256

// Tree reduction inside one block (lecture 3.2): load -> __syncthreads -> halve the stride.
__global__ void block_sum(const float* x, float* partial, int n) {
    __shared__ float sdata[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: load x[i] (0 when i >= n), synchronise, reduce sdata with sequential addressing,
    //       and let thread 0 write this block's partial sum.
}

extern "C" void sum_reduction(const float* x, float* out, int n) {
    int blocks = (n + BLOCK - 1) / BLOCK;
    float* partial = nullptr;
    cudaMalloc(&partial, blocks * sizeof(float));
    block_sum<<<blocks, BLOCK>>>(x, partial, n);
    // TODO: reduce the partial sums into out[0] (second launch, or atomics after a cudaMemset).
    cudaFree(partial);
}
