// Starter for matmul (CUDA). Keep the extern "C" entry point; launch on the default stream.
#include <cuda_runtime.h>

#define TILE 16

// One thread per output element (lecture 2.27, mapping 2: threadIdx.x -> column).
__global__ void matmul_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        // TODO: each thread loads one element of the A tile and one of the B tile (0 outside
        // the matrix), __syncthreads(), accumulate TILE products, __syncthreads() again.
    }
    // TODO: write acc to c[row * n + col] when row < m and col < n.
}

extern "C" void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_kernel<<<grid, block>>>(a, b, c, m, n, k);
}
