// RUN: %check_clang_tidy %s cublas-handle-state %t -- -- -fopenmp

// A handle reconfigured in code that several host threads run at once
// (std::thread, std::async, OpenMP parallel regions); and the forms that
// are safe: a handle per thread, a lock, the configuration done before the
// threads start, a thread started once.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

cublasHandle_t g_handle;
std::mutex g_mutex;

void worker(cudaStream_t s, int n, const float *alpha, const float *x, float *y) {
  cublasSetStream(g_handle, s);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cublasSetStream' changes the stream of 'g_handle' (a global handle) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuBLAS handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+8]]:5: note: the threads that run it at once start here
  cublasSaxpy(g_handle, n, alpha, x, 1, y, 1);
}

void runThreads(cudaStream_t *streams, int n, const float *alpha,
                const float *x, float *y) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back(worker, streams[i], n, alpha, x, y);
  for (auto &t : threads)
    t.join();
}

void lambdaCaptured(cudaStream_t *streams, int n, const float *x) {
  cublasHandle_t h;
  cublasCreate(&h);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.push_back(std::thread([&, i] {
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
// CHECK-NOTES: :[[@LINE-1]]:7: warning: 'cublasSetPointerMode' changes the pointer mode of 'h' (captured from the function that starts the threads) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuBLAS handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE-3]]:23: note: the threads that run it at once start here
      float r;
      cublasSasum(h, n, x, 1, &r);
    }));
  for (auto &t : threads)
    t.join();
  cublasDestroy(h);
}

// One handle per thread: silent.
void perThread(cudaStream_t *streams, int n, const float *alpha,
               const float *x, float *y) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([=] {
      cublasHandle_t h;
      cublasCreate(&h);
      cublasSetStream(h, streams[i]);
      cublasSaxpy(h, n, alpha, x, 1, y, 1);
      cublasDestroy(h);
    });
  for (auto &t : threads)
    t.join();
}

// Locked: silent.
void lockedWorker(cudaStream_t s, int n, const float *alpha, const float *x,
                  float *y) {
  std::lock_guard<std::mutex> lock(g_mutex);
  cublasSetStream(g_handle, s);
  cublasSaxpy(g_handle, n, alpha, x, 1, y, 1);
}
void runLocked(cudaStream_t *streams, int n, const float *alpha,
               const float *x, float *y) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back(lockedWorker, streams[i], n, alpha, x, y);
  for (auto &t : threads)
    t.join();
}

// Configured once before the threads start: silent.
void configuredBefore(cudaStream_t s, int n, const float *alpha,
                      const float *x, float *y) {
  cublasSetStream(g_handle, s);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([=] { cublasSaxpy(g_handle, n, alpha, x, 1, y, 1); });
  for (auto &t : threads)
    t.join();
}

// A parameter of the thread's function: each thread is given its handle.
void paramWorker(cublasHandle_t h, cudaStream_t s) { cublasSetStream(h, s); }
void runParams(cublasHandle_t *handles, cudaStream_t *streams) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back(paramWorker, handles[i], streams[i]);
  for (auto &t : threads)
    t.join();
}

// One thread, started once: not concurrent with itself.
void once(cudaStream_t s, int n, const float *alpha, const float *x, float *y) {
  std::thread t([=] { cublasSetStream(g_handle, s); });
  t.join();
}

// Async tasks in a loop through a helper.
static void setMath() { cublasSetMathMode(g_handle, CUBLAS_TF32_TENSOR_OP_MATH); }
// CHECK-NOTES: :[[@LINE-1]]:25: warning: 'cublasSetMathMode' changes the math mode of 'g_handle' (a global handle) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuBLAS handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+4]]:18: note: the asynchronous tasks that run it at once start here
void asyncs() {
  std::vector<std::future<void>> fs;
  for (int i = 0; i < 2; ++i)
    fs.push_back(std::async(std::launch::async, [] { setMath(); }));
}

void openmp(cudaStream_t *streams, int n, const float *alpha, const float *x,
            float *y) {
  cublasHandle_t h;
  cublasCreate(&h);
#pragma omp parallel for
  for (int i = 0; i < 4; ++i) {
    cublasSetStream(h, streams[i]);
// CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cublasSetStream' changes the stream of 'h' (declared outside the parallel region) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuBLAS handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE-4]]:1: note: the parallel region that runs it on several threads
    cublasSaxpy(h, n, alpha, x, 1, y, 1);
  }
#pragma omp parallel
  {
    cublasHandle_t mine;
    cublasCreate(&mine);
    cublasSetStream(mine, streams[0]);
    cublasDestroy(mine);
  }
#pragma omp parallel
  {
#pragma omp critical
    cublasSetStream(h, streams[1]);
  }
  cublasDestroy(h);
}

// One handle per thread through thread_local: silent.
thread_local cublasHandle_t t_handle;
void tlsWorker(cudaStream_t s) { cublasSetStream(t_handle, s); }
void runTls(cudaStream_t *streams) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back(tlsWorker, streams[i]);
  for (auto &t : threads)
    t.join();
}

// Deferred tasks run on the waiting thread: silent.
static void setMathDeferred() { cublasSetMathMode(g_handle, CUBLAS_DEFAULT_MATH); }
void deferred() {
  std::vector<std::future<void>> fs;
  for (int i = 0; i < 2; ++i)
    fs.push_back(std::async(std::launch::deferred, [] { setMathDeferred(); }));
}

// The lock taken, then released before the change: reported.
void unlockedWorker(cudaStream_t s) {
  g_mutex.lock();
  g_mutex.unlock();
  cublasSetStream(g_handle, s);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cublasSetStream' changes the stream of 'g_handle' (a global handle) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuBLAS handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:15: note: the threads that run it at once start here
}
void runUnlocked(cudaStream_t *streams) {
  std::thread a(unlockedWorker, streams[0]);
  std::thread b(unlockedWorker, streams[1]);
  a.join();
  b.join();
}

// A member handle of an object whose method threads run.
struct Pool {
  cublasHandle_t handle_;
  void work(cudaStream_t s) { cublasSetStream(handle_, s); }
// CHECK-NOTES: :[[@LINE-1]]:31: warning: 'cublasSetStream' changes the stream of 'handle_' (a member handle) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuBLAS handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+4]]:7: note: the threads that run it at once start here
  void run(cudaStream_t *streams) {
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
      threads.emplace_back([this, streams, i] { work(streams[i]); });
    for (auto &t : threads)
      t.join();
  }
};

// A parallel region with its loop split by a nested `omp for`.
void nestedFor(cudaStream_t *streams, int count, int n, const float *alpha,
               const float *x, float *y) {
  cublasHandle_t handle;
  cublasCreate(&handle);
#pragma omp parallel
#pragma omp for
  for (int i = 0; i < count; i++) {
    cublasSetStream(handle, streams[i]);
// CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cublasSetStream' changes the stream of 'handle' (declared outside the parallel region) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuBLAS handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE-5]]:1: note: the parallel region that runs it on several threads
    cublasSaxpy(handle, n, alpha, x, 1, y, 1);
  }
  cublasDestroy(handle);
}

// Each iteration waits for its thread or task: the iterations do not
// overlap, and the global handle is not shared at once.
static void joinedWorker(cudaStream_t s) { cublasSetStream(g_handle, s); }
static void joinedMath() { cublasSetMathMode(g_handle, CUBLAS_DEFAULT_MATH); }
static void temporaryMath() {
  cublasSetMathMode(g_handle, CUBLAS_PEDANTIC_MATH);
}
void joinedEachTime(cudaStream_t *streams) {
  for (int i = 0; i < 4; ++i) {
    std::thread t(joinedWorker, streams[i]);
    t.join();
  }
  for (int i = 0; i < 4; ++i) {
    auto f = std::async(std::launch::async, joinedMath);
    f.get();
  }
  for (int i = 0; i < 4; ++i)
    std::async(std::launch::async, temporaryMath);
}
