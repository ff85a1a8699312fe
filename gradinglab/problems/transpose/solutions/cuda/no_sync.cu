// Expected CPU-path status: needs_gpu (it compiles). On a GPU: wrong_answer.
// Mistake: no __syncthreads() between filling the tile and reading it transposed; a thread
// reads tile[threadIdx.x][threadIdx.y], written by another warp that may not have run yet.
#include <cuda_runtime.h>

#define TILE 32

__global__ void transpose_kernel(const float* x, float* out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = x[(long long)r * cols + c];
    int out_r = blockIdx.x * TILE + threadIdx.y;  // a column index of x = a row of out
    int out_c = blockIdx.y * TILE + threadIdx.x;  // a row index of x = a column of out
    if (out_r < cols && out_c < rows) out[(long long)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

extern "C" void transpose(const float* x, float* out, int rows, int cols) {
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(x, out, rows, cols);
}
