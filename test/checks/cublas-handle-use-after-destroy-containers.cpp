// RUN: %check_clang_tidy %s cublas-handle-use-after-destroy %t -- -- -std=c++17
// Owners copied into standard containers: the copy happens in the library,
// but the call that asks for it is the user's.
#include <cublas_v2.h>

#include <deque>
#include <list>
#include <utility>
#include <vector>

struct Owner {
  Owner() { cublasCreate(&h); }
  ~Owner() { cublasDestroy(h); }
  cublasHandle_t h;
};

// Moves leave the source empty; copies are deleted.
struct Movable {
  Movable() { cublasCreate(&h); }
  Movable(Movable &&o) noexcept : h(o.h) { o.h = nullptr; }
  Movable(const Movable &) = delete;
  ~Movable() {
    if (h)
      cublasDestroy(h);
  }
  cublasHandle_t h = nullptr;
};

void copies() {
  std::vector<Owner> v;
  Owner w;
  v.push_back(w);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: this push_back copies a 'Owner' into the container, and the copy shares its handle member 'h' with the original: both destroy it in '~Owner', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Owner' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :13:14: note: 'h' is destroyed here when each 'Owner' is destroyed
  v.emplace_back(w);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: this emplace_back copies a 'Owner' into the container, and the copy shares its handle member 'h' with the original: both destroy it in '~Owner', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Owner' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :13:14: note: 'h' is destroyed here when each 'Owner' is destroyed
  std::list<Owner> l;
  l.insert(l.end(), w);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: this insert copies a 'Owner' into the container, and the copy shares its handle member 'h' with the original: both destroy it in '~Owner', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Owner' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :13:14: note: 'h' is destroyed here when each 'Owner' is destroyed
  // std::move of a class without a move constructor copies it too.
  std::deque<Owner> d;
  d.push_front(std::move(w));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: this push_front copies a 'Owner' into the container, and the copy shares its handle member 'h' with the original: both destroy it in '~Owner', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Owner' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :13:14: note: 'h' is destroyed here when each 'Owner' is destroyed
}

void noCopies() {
  std::vector<Movable> m;
  Movable x;
  m.push_back(std::move(x));
  m.emplace_back();
  m.emplace_back(Movable());
  std::vector<Owner> v;
  v.emplace_back();
  v.resize(4);
  std::vector<Owner *> pointers;
  Owner w;
  pointers.push_back(&w);
}
