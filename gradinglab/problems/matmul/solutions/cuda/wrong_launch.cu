// Expected CPU-path status: compile_error.
// Mistake: the kernel is called like a host function, without the <<<grid, block>>> launch
// configuration; nvcc rejects calling a __global__ function from host code this way.
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE + 1];  // +1 column: no bank conflicts (lecture 3.4)
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        int ak = t + threadIdx.x;
        int bk = t + threadIdx.y;
        as[threadIdx.y][threadIdx.x] = (row < m && ak < k) ? a[(long long)row * k + ak] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = (bk < k && col < n) ? b[(long long)bk * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i) acc += as[threadIdx.y][i] * bs[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[(long long)row * n + col] = acc;
}

extern "C" void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_kernel(a, b, c, m, n, k);
}
