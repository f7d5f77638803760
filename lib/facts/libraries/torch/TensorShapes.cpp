//===- TensorShapes.cpp ---------------------------------------------------===//

#include "facts/libraries/torch/TensorShapes.h"

#include "facts/libraries/torch/TensorChecks.h"
#include "facts/libraries/torch/TorchExprs.h"

#include "model/TorchApi.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace torch_facts {

namespace {

/// The dimensions of `permute({...})` as written constants, negative ones
/// counted from the end; nullopt when one is not a constant.
std::optional<llvm::SmallVector<int, 4>>
permutation(const CXXMemberCallExpr *MC) {
  const InitListExpr *List =
      MC->getNumArgs() == 1 ? bracedList(MC->getArg(0)) : nullptr;
  if (!List)
    return std::nullopt;
  llvm::SmallVector<int, 4> Dims;
  int N = int(List->getNumInits());
  for (const Expr *E : List->inits()) {
    std::optional<int> D = smallConstant(E);
    if (!D || *D >= N || *D < -N)
      return std::nullopt;
    Dims.push_back(*D < 0 ? *D + N : *D);
  }
  return Dims;
}

/// The dimensions `transpose(i, j)` swaps, when both are written as
/// constants that are not negative; `t()` swaps 0 and 1; `permute({1, 0})`.
std::optional<std::pair<int, int>> swappedDims(const CXXMemberCallExpr *MC,
                                               llvm::StringRef Name) {
  if (Name == "permute") {
    std::optional<llvm::SmallVector<int, 4>> P = permutation(MC);
    return P && P->size() == 2 && (*P)[0] == 1 && (*P)[1] == 0
               ? std::optional(std::pair(0, 1))
               : std::nullopt;
  }
  if (Name == "t")
    return MC->getNumArgs() == 0 ? std::optional(std::pair(0, 1))
                                 : std::nullopt;
  if (MC->getNumArgs() != 2)
    return std::nullopt;
  std::optional<int> I = smallConstant(MC->getArg(0));
  std::optional<int> J = smallConstant(MC->getArg(1));
  if (!I || !J || *I < 0 || *J < 0 || *I == *J)
    return std::nullopt;
  return std::pair(*I, *J);
}

/// The dimensions of the tensor of `N` dimensions that the view `MC`
/// (`transpose(i, j)`, negative ones counted from the end; `permute(...)`
/// naming each once) puts in each place; nullopt otherwise.
std::optional<llvm::SmallVector<unsigned, 4>>
reorderedDims(const CXXMemberCallExpr *MC, llvm::StringRef Name, unsigned N) {
  llvm::SmallVector<unsigned, 4> Order;
  for (unsigned I = 0; I < N; ++I)
    Order.push_back(I);
  if (Name == "permute") {
    std::optional<llvm::SmallVector<int, 4>> P = permutation(MC);
    if (!P || P->size() != N)
      return std::nullopt;
    llvm::SmallVector<bool, 4> Seen(N, false);
    for (unsigned I = 0; I < N; ++I) {
      if (Seen[(*P)[I]])
        return std::nullopt;
      Seen[(*P)[I]] = true;
      Order[I] = unsigned((*P)[I]);
    }
    return Order;
  }
  if (Name == "t") {
    if (N != 2 || MC->getNumArgs() != 0)
      return std::nullopt;
    std::swap(Order[0], Order[1]);
    return Order;
  }
  if (Name != "transpose" || MC->getNumArgs() != 2)
    return std::nullopt;
  std::optional<int> I = smallConstant(MC->getArg(0));
  std::optional<int> J = smallConstant(MC->getArg(1));
  if (!I || !J || *I >= int(N) || *J >= int(N) || *I < -int(N) || *J < -int(N))
    return std::nullopt;
  std::swap(Order[*I < 0 ? *I + N : *I], Order[*J < 0 ? *J + N : *J]);
  return Order;
}

/// One step of a tensor expression, as the walks below see it.
struct TensorStep {
  enum StepKind { Other, Parameter, Local, Method, Factory, Like } Kind = Other;
  /// Parameter, Local: the variable; for a Local its one definition (null
  /// when something may change it: Written).
  const VarDecl *Var = nullptr;
  const Expr *Init = nullptr;
  bool Written = false;
  /// Method: the call, its name, its object and how it maps the shape.
  const CXXMemberCallExpr *Call = nullptr;
  llvm::StringRef Name;
  const Expr *Base = nullptr;
  torch_api::ShapeResult Shape = torch_api::ShapeResult::Unknown;
  /// Factory: the call and the sizes written in it (also those of a
  /// Method `view` or `reshape`).
  const CallExpr *Made = nullptr;
  const InitListExpr *Sizes = nullptr;
  /// Method `as_strided`: the strides written.
  const InitListExpr *Strides = nullptr;
  /// Like: the tensor whose sizes and layout it takes.
  const Expr *Of = nullptr;
};

/// What the (stripped) expression `E` of tensor type is.
TensorStep stepOf(const Expr *E) {
  TensorStep S;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !isTensorType(VD->getType()))
      return S;
    S.Var = VD;
    S.Init = singleDefinition(VD, S.Written);
    S.Kind = isa<ParmVarDecl>(VD) ? TensorStep::Parameter : TensorStep::Local;
    // `x = x.contiguous()` keeps the sizes.
    if (S.Written && S.Kind == TensorStep::Parameter &&
        onlyMadeContiguous(cast<ParmVarDecl>(VD)))
      S.Written = false;
    return S;
  }
  if ((S.Call = tensorMethod(E, S.Name, S.Base))) {
    S.Kind = TensorStep::Method;
    S.Shape = torch_api::shape(S.Name);
    // `x.view({B, S, H, D})`, `x.reshape(...)`: the sizes written.
    if ((S.Name == "view" || S.Name == "reshape") && S.Call->getNumArgs() == 1)
      S.Sizes = bracedList(S.Call->getArg(0));
    // `b.expand({m, n})`, its `implicit` flag left to its default.
    if (S.Name == "expand" && S.Call->getNumArgs() == 2 &&
        isa<CXXDefaultArgExpr>(S.Call->getArg(1)))
      S.Sizes = bracedList(S.Call->getArg(0));
    // `x.as_strided({sizes}, {strides})`: both written, one per dimension.
    if (S.Name == "as_strided" && S.Call->getNumArgs() >= 2) {
      S.Sizes = bracedList(S.Call->getArg(0));
      S.Strides = bracedList(S.Call->getArg(1));
      if (!S.Sizes || !S.Strides ||
          S.Sizes->getNumInits() != S.Strides->getNumInits())
        S.Sizes = S.Strides = nullptr;
    }
    return S;
  }
  torch_api::TensorResult Kind;
  if (const CallExpr *Call = torchCall(E, Kind)) {
    if ((S.Sizes = sizeList(Call))) {
      S.Kind = TensorStep::Factory;
      S.Made = Call;
    } else if (Kind == torch_api::TensorResult::Like &&
               Call->getNumArgs() > 0) {
      S.Kind = TensorStep::Like;
      S.Of = Call->getArg(0);
    }
  }
  return S;
}

/// The value an argument of type `std::optional<int64_t>` is given
/// (slice's start and end); null for a default argument.
const Expr *optionalArgument(const Expr *E) {
  for (int Step = 0; E && Step < 8; ++Step) {
    if (isa<CXXDefaultArgExpr>(E))
      return nullptr;
    E = E->IgnoreImplicit();
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() != 1)
      return E;
    E = Construct->getArg(0);
  }
  return E;
}

/// One index of `Tensor::index({...})`: a whole dimension (`Slice()`), a
/// part of it (`Slice(start, end)`, Start null for None: 0), or one element
/// (an integer: the dimension dropped).
struct BasicIndex {
  enum KindT { All, Part, One } Kind = All;
  const Expr *Start = nullptr;
  const Expr *End = nullptr;
};

/// A bound of a Slice: its value, null for None (`c10::nullopt`, or the
/// default); nullopt for a bound not told.
std::optional<const Expr *> sliceBound(const Expr *E) {
  const Expr *V = optionalArgument(E);
  if (!V)
    return nullptr;
  const auto *RD = V->getType()->getAsCXXRecordDecl();
  if (RD && RD->getName() == "nullopt_t")
    return nullptr;
  if (!V->getType()->isIntegerType())
    return std::nullopt;
  return V;
}

/// The indices of `index({...})` (model/TorchApi.h's Indexed) when each is
/// a Slice of step 1 with an end (or none at all) or an integer; nullopt
/// for None, Ellipsis, a step, an open end, a boolean or a tensor.
std::optional<llvm::SmallVector<BasicIndex, 4>>
basicIndices(const CXXMemberCallExpr *Call) {
  if (Call->getNumArgs() != 1)
    return std::nullopt;
  const Expr *A = Call->getArg(0)->IgnoreImplicit();
  // An ArrayRef<TensorIndex> made of the braced list.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(A);
      CE && CE->getNumArgs() == 1)
    A = CE->getArg(0)->IgnoreImplicit();
  const auto *List = dyn_cast<CXXStdInitializerListExpr>(A);
  const auto *Inits =
      List ? dyn_cast<InitListExpr>(List->getSubExpr()->IgnoreImplicit())
           : nullptr;
  if (!Inits)
    return std::nullopt;
  llvm::SmallVector<BasicIndex, 4> Indices;
  for (const Expr *Init : Inits->inits()) {
    const auto *Index = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit());
    if (!Index || Index->getNumArgs() != 1)
      return std::nullopt;
    const Expr *Arg = Index->getArg(0)->IgnoreImplicit();
    BasicIndex I;
    QualType T = Arg->getType();
    if (T->isIntegerType() && !T->isBooleanType()) {
      I.Kind = BasicIndex::One;
      Indices.push_back(I);
      continue;
    }
    const auto *Slice = dyn_cast<CXXConstructExpr>(Arg);
    const CXXRecordDecl *RD =
        Slice ? Slice->getConstructor()->getParent() : nullptr;
    if (!RD || RD->getName() != "Slice" || Slice->getNumArgs() != 3)
      return std::nullopt;
    std::optional<const Expr *> Start = sliceBound(Slice->getArg(0));
    std::optional<const Expr *> End = sliceBound(Slice->getArg(1));
    std::optional<const Expr *> Step = sliceBound(Slice->getArg(2));
    if (!Start || !End || !Step || (*Step && smallConstant(*Step) != 1) ||
        (*Start && !*End))
      return std::nullopt;
    if (*End) {
      I.Kind = BasicIndex::Part;
      I.Start = *Start;
      I.End = *End;
    }
    Indices.push_back(I);
  }
  return Indices;
}

/// The dimension of the base of `index(Indices)` that the view's dimension
/// `Dim` (counted from the start) is, with its index (null past the
/// indices: the dimension whole).
std::pair<unsigned, const BasicIndex *>
indexedFrom(llvm::ArrayRef<BasicIndex> Indices, unsigned Dim) {
  unsigned Base = 0, View = 0;
  for (const BasicIndex &I : Indices) {
    if (I.Kind != BasicIndex::One && View++ == Dim)
      return {Base, &I};
    ++Base;
  }
  return {Base + (Dim - View), nullptr};
}

/// The number of dimensions of the tensor `E`, when the source fixes it.
std::optional<unsigned> dimsOf(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  TensorStep S = stepOf(strip(E));
  switch (S.Kind) {
  case TensorStep::Parameter: {
    const auto *P = cast<ParmVarDecl>(S.Var);
    std::optional<unsigned> N;
    checkedBefore(P, E, [&](const Expr *C) {
      N = testedDims(C, P);
      return N.has_value();
    });
    return N;
  }
  case TensorStep::Local:
    return dimsOf(S.Init, Depth + 1);
  case TensorStep::Method:
    switch (S.Shape) {
    case torch_api::ShapeResult::Same:
    case torch_api::ShapeResult::Contiguous:
      return dimsOf(S.Base, Depth + 1);
    case torch_api::ShapeResult::Transposed:
      if (S.Name == "permute") {
        std::optional<llvm::SmallVector<int, 4>> P = permutation(S.Call);
        return P ? std::optional(unsigned(P->size())) : std::nullopt;
      }
      return swappedDims(S.Call, S.Name) ? dimsOf(S.Base, Depth + 1)
                                         : std::nullopt;
    case torch_api::ShapeResult::Narrowed:
      return dimsOf(S.Base, Depth + 1);
    case torch_api::ShapeResult::Selected: {
      std::optional<unsigned> N = dimsOf(S.Base, Depth + 1);
      return N && *N > 0 ? std::optional(*N - 1) : std::nullopt;
    }
    case torch_api::ShapeResult::Indexed: {
      std::optional<llvm::SmallVector<BasicIndex, 4>> Indices =
          basicIndices(S.Call);
      std::optional<unsigned> N = dimsOf(S.Base, Depth + 1);
      if (!Indices || !N || Indices->size() > *N)
        return std::nullopt;
      return *N - unsigned(llvm::count_if(*Indices, [](const BasicIndex &I) {
        return I.Kind == BasicIndex::One;
      }));
    }
    case torch_api::ShapeResult::Expanded:
    case torch_api::ShapeResult::Strided:
    case torch_api::ShapeResult::Unknown:
      return S.Sizes ? std::optional(S.Sizes->getNumInits()) : std::nullopt;
    }
    return std::nullopt;
  case TensorStep::Factory:
    return S.Sizes->getNumInits();
  case TensorStep::Like:
    return dimsOf(S.Of, Depth + 1);
  case TensorStep::Other:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<TensorSize> sizeOf(const Expr *E, int Dim, unsigned Depth);

/// The size `Dim` (negative: from the end) written in `Sizes`; nullopt
/// past its end, and for a `-1` (a view's size PyTorch infers).
std::optional<TensorSize> writtenSize(const InitListExpr *Sizes, int Dim) {
  int N = int(Sizes->getNumInits());
  int At = Dim < 0 ? Dim + N : Dim;
  if (At < 0 || At >= N)
    return std::nullopt;
  const Expr *Written = Sizes->getInit(unsigned(At));
  if (smallConstant(Written) == -1)
    return std::nullopt;
  TensorSize Size;
  Size.Written = Written;
  return Size;
}

/// The size of dimension `Dim` of the Transposed view `S` made of its base.
std::optional<TensorSize> transposedSize(const TensorStep &S, int Dim,
                                         unsigned Depth) {
  if (S.Name == "permute") {
    std::optional<llvm::SmallVector<int, 4>> P = permutation(S.Call);
    int N = P ? int(P->size()) : 0;
    if (!P || Dim >= N || Dim < -N)
      return std::nullopt;
    return sizeOf(S.Base, (*P)[Dim < 0 ? Dim + N : Dim], Depth + 1);
  }
  std::optional<std::pair<int, int>> Swap = swappedDims(S.Call, S.Name);
  if (!Swap)
    return std::nullopt;
  if (S.Name == "t") {
    // t() of a 1-D tensor is the tensor itself: size(-1) and size(1)
    // (which needs two dimensions) are the base's size(0) either way;
    // size(0) is the base's size(1) only for two dimensions.
    if (Dim == 1 || Dim == -1)
      return sizeOf(S.Base, 0, Depth + 1);
    if (Dim == -2)
      return sizeOf(S.Base, 1, Depth + 1);
    std::optional<unsigned> N = dimsOf(S.Base, Depth + 1);
    return N && *N == 2 && Dim == 0 ? sizeOf(S.Base, 1, Depth + 1)
                                     : std::nullopt;
  }
  if (Dim < 0)
    return std::nullopt;
  int From = Dim == Swap->first    ? Swap->second
             : Dim == Swap->second ? Swap->first
                                   : Dim;
  return sizeOf(S.Base, From, Depth + 1);
}

/// `Dim` of a tensor of `N` dimensions counted from the start; nullopt
/// when negative and `N` is unknown, or out of range.
std::optional<unsigned> fromStart(int Dim, std::optional<unsigned> N) {
  if (Dim >= 0)
    return N && Dim >= int(*N) ? std::nullopt : std::optional(unsigned(Dim));
  if (!N || Dim < -int(*N))
    return std::nullopt;
  return unsigned(Dim + int(*N));
}

/// The dimension a view operation's argument `Arg` names, a constant,
/// negative ones counted from the end of `N` dimensions; nullopt when not
/// a constant or out of range.
std::optional<unsigned> dimArgument(const Expr *Arg,
                                    std::optional<unsigned> N) {
  std::optional<int> D = smallConstant(Arg);
  return D ? fromStart(*D, N) : std::nullopt;
}

/// The size of dimension `Dim` of the view `S` that narrows, selects,
/// expands or strides its base (model/TorchApi.h's ShapeResult).
std::optional<TensorSize> viewSize(const TensorStep &S, int Dim,
                                   unsigned Depth) {
  std::optional<unsigned> BaseDims = dimsOf(S.Base, Depth + 1);
  switch (S.Shape) {
  case torch_api::ShapeResult::Narrowed: {
    if (S.Call->getNumArgs() < 3)
      return std::nullopt;
    std::optional<unsigned> At = dimArgument(S.Call->getArg(0), BaseDims);
    std::optional<unsigned> D = fromStart(Dim, BaseDims);
    if (!At || !D)
      return std::nullopt;
    if (*D != *At)
      return sizeOf(S.Base, int(*D), Depth + 1);
    if (S.Name != "narrow")
      return std::nullopt; // slice: end - start
    TensorSize Size;
    Size.Written = S.Call->getArg(2);
    return Size;
  }
  case torch_api::ShapeResult::Selected: {
    if (S.Call->getNumArgs() != 2)
      return std::nullopt;
    std::optional<unsigned> At = dimArgument(S.Call->getArg(0), BaseDims);
    std::optional<unsigned> D =
        fromStart(Dim, BaseDims ? std::optional(*BaseDims - 1) : std::nullopt);
    if (!At || !D)
      return std::nullopt;
    return sizeOf(S.Base, int(*D < *At ? *D : *D + 1), Depth + 1);
  }
  case torch_api::ShapeResult::Expanded: {
    if (!S.Sizes)
      return std::nullopt;
    std::optional<unsigned> D = fromStart(Dim, S.Sizes->getNumInits());
    if (!D)
      return std::nullopt;
    if (smallConstant(S.Sizes->getInit(*D)) != -1)
      return writtenSize(S.Sizes, int(*D));
    // -1 keeps the size of the base's dimension aligned at the end.
    unsigned New = S.Sizes->getNumInits();
    if (!BaseDims || *D + *BaseDims < New)
      return std::nullopt;
    return sizeOf(S.Base, int(*D + *BaseDims - New), Depth + 1);
  }
  case torch_api::ShapeResult::Strided:
    return S.Sizes ? writtenSize(S.Sizes, Dim) : std::nullopt;
  case torch_api::ShapeResult::Indexed: {
    std::optional<llvm::SmallVector<BasicIndex, 4>> Indices =
        basicIndices(S.Call);
    std::optional<unsigned> D = fromStart(Dim, dimsOf(S.Call, Depth));
    if (!Indices || !D)
      return std::nullopt;
    auto [From, Index] = indexedFrom(*Indices, *D);
    if (!Index || Index->Kind == BasicIndex::All)
      return sizeOf(S.Base, int(From), Depth + 1);
    if (Index->Start)
      return std::nullopt; // end - start
    TensorSize Size;
    Size.Written = Index->End;
    return Size;
  }
  default:
    return std::nullopt;
  }
}

std::optional<TensorSize> sizeOf(const Expr *E, int Dim, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  TensorStep S = stepOf(strip(E));
  switch (S.Kind) {
  case TensorStep::Parameter:
  case TensorStep::Local: {
    if (S.Written)
      return std::nullopt;
    if (std::optional<TensorSize> Size = sizeOf(S.Init, Dim, Depth + 1))
      return Size;
    // A parameter's size, or a local's that nothing changes: by name. A
    // negative dimension counts from the end when the number is known; one
    // past it has no size.
    if (std::optional<unsigned> N = dimsOf(E)) {
      if (Dim >= int(*N) || Dim < -int(*N))
        return std::nullopt;
      if (Dim < 0)
        Dim += int(*N);
    }
    TensorSize Size;
    Size.Tensor = S.Var;
    Size.Dim = Dim;
    return Size;
  }
  case TensorStep::Method:
    switch (S.Shape) {
    case torch_api::ShapeResult::Same:
    case torch_api::ShapeResult::Contiguous:
      return sizeOf(S.Base, Dim, Depth + 1);
    case torch_api::ShapeResult::Transposed:
      return transposedSize(S, Dim, Depth);
    case torch_api::ShapeResult::Narrowed:
    case torch_api::ShapeResult::Selected:
    case torch_api::ShapeResult::Expanded:
    case torch_api::ShapeResult::Strided:
    case torch_api::ShapeResult::Indexed:
      return viewSize(S, Dim, Depth);
    case torch_api::ShapeResult::Unknown:
      return S.Sizes ? writtenSize(S.Sizes, Dim) : std::nullopt;
    }
    return std::nullopt;
  case TensorStep::Factory:
    return writtenSize(S.Sizes, Dim);
  case TensorStep::Like:
    return sizeOf(S.Of, Dim, Depth + 1);
  case TensorStep::Other:
    return std::nullopt;
  }
  return std::nullopt;
}

/// `Of` as a View: a RowMajor tensor of known rank is the view of itself,
/// each dimension its own; a View stays one; Unknown otherwise.
TensorLayout asView(TensorLayout Of) {
  if (Of.Order == TensorOrder::View)
    return Of;
  if (Of.Order != TensorOrder::RowMajor || !Of.Dims)
    return TensorLayout();
  Of.Order = TensorOrder::View;
  Of.ViewDims.clear();
  for (unsigned I = 0; I < *Of.Dims; ++I) {
    ViewDim D;
    D.StorageDim = int(I);
    Of.ViewDims.push_back(D);
  }
  Of.Ops = 0;
  return Of;
}

/// The view the step `S` (a transpose or permute) makes of the tensor laid
/// out as `Of` (a RowMajor one of three or more dimensions, or a View):
/// its dimensions reordered, or `Of` itself when nothing moves; Unknown
/// when the dimensions are not constants.
TensorLayout permutedView(const TensorLayout &Of, const TensorStep &S) {
  TensorLayout V = asView(Of);
  if (V.Order != TensorOrder::View)
    return TensorLayout();
  std::optional<llvm::SmallVector<unsigned, 4>> Order =
      reorderedDims(S.Call, S.Name, V.ViewDims.size());
  if (!Order)
    return TensorLayout();
  if (llvm::all_of(llvm::enumerate(*Order),
                   [](auto P) { return P.index() == P.value(); }))
    return Of;
  llvm::SmallVector<ViewDim, 4> Dims;
  for (unsigned From : *Order)
    Dims.push_back(V.ViewDims[From]);
  V.ViewDims = std::move(Dims);
  V.Ops |= ViewOps::Reorders;
  V.View = S.Call;
  return V;
}

/// narrow(dim, start, length) or slice(dim, start, end[, step = 1]) of the
/// View `V`: the dimension's size of its own, its stride kept.
bool narrowDims(TensorLayout &V, const TensorStep &S) {
  const CXXMemberCallExpr *Call = S.Call;
  bool Narrow = S.Name == "narrow";
  if (Call->getNumArgs() != (Narrow ? 3u : 4u))
    return false;
  std::optional<unsigned> At =
      dimArgument(Call->getArg(0), unsigned(V.ViewDims.size()));
  if (!At || V.ViewDims[*At].MaybeBroadcast)
    return false;
  ViewDim &D = V.ViewDims[*At];
  if (Narrow) {
    D.Size = Call->getArg(2);
    D.End = nullptr;
    return true;
  }
  const Expr *Step = Call->getArg(3);
  D.Size = optionalArgument(Call->getArg(1));
  D.End = optionalArgument(Call->getArg(2));
  return D.End && (isa<CXXDefaultArgExpr>(Step) || smallConstant(Step) == 1);
}

/// expand({sizes}) of the View `V`: new leading dimensions of stride 0,
/// and the others kept (-1) or given a size (stride 0 where the storage's
/// size is 1, viewGeometry()).
bool expandDims(TensorLayout &V, const TensorStep &S) {
  unsigned N = V.ViewDims.size();
  unsigned New = S.Sizes ? S.Sizes->getNumInits() : 0;
  if (New < N || New == 0)
    return false;
  llvm::SmallVector<ViewDim, 4> Dims;
  for (unsigned I = 0; I < New; ++I) {
    const Expr *Written = S.Sizes->getInit(I);
    if (I < New - N) {
      ViewDim D;
      D.StorageDim = ViewDim::Broadcast;
      D.Size = Written;
      Dims.push_back(D);
      continue;
    }
    ViewDim D = V.ViewDims[I - (New - N)];
    if (smallConstant(Written) != -1) {
      // Sizes of its own or of another expand: not followed.
      if (D.Size || D.End || D.MaybeBroadcast || D.StorageDim < 0)
        return false;
      D.Size = Written;
      D.MaybeBroadcast = true;
    }
    Dims.push_back(D);
  }
  V.ViewDims = std::move(Dims);
  return true;
}

/// index({...}) of the View `V` with basic indices: a Slice narrows its
/// dimension (its stride kept), an integer drops it.
bool indexDims(TensorLayout &V, const TensorStep &S) {
  std::optional<llvm::SmallVector<BasicIndex, 4>> Indices =
      basicIndices(S.Call);
  if (!Indices || Indices->size() > V.ViewDims.size())
    return false;
  llvm::SmallVector<ViewDim, 4> Dims;
  for (auto [At, I] : llvm::enumerate(*Indices)) {
    ViewDim D = V.ViewDims[At];
    if (I.Kind == BasicIndex::One) {
      V.Ops |= ViewOps::Selects;
      continue;
    }
    if (I.Kind == BasicIndex::Part) {
      if (D.MaybeBroadcast)
        return false;
      D.Size = I.Start;
      D.End = I.End;
      V.Ops |= ViewOps::Narrows;
    }
    Dims.push_back(D);
  }
  Dims.append(V.ViewDims.begin() + Indices->size(), V.ViewDims.end());
  V.ViewDims = std::move(Dims);
  return true;
}

/// The view the step `S` (narrow, slice, select, expand, as_strided) makes
/// of the tensor laid out as `Of`, a RowMajor tensor of known rank or a
/// View; Unknown when the step's arguments are not as the table says.
TensorLayout slicedView(const TensorLayout &Of, const TensorStep &S) {
  TensorLayout V = asView(Of);
  if (V.Order != TensorOrder::View)
    return TensorLayout();
  bool Known = false;
  switch (S.Shape) {
  case torch_api::ShapeResult::Narrowed:
    Known = narrowDims(V, S);
    V.Ops |= ViewOps::Narrows;
    break;
  case torch_api::ShapeResult::Selected: {
    std::optional<unsigned> At =
        S.Call->getNumArgs() == 2
            ? dimArgument(S.Call->getArg(0), unsigned(V.ViewDims.size()))
            : std::nullopt;
    if ((Known = At.has_value()))
      V.ViewDims.erase(V.ViewDims.begin() + *At);
    V.Ops |= ViewOps::Selects;
    break;
  }
  case torch_api::ShapeResult::Expanded:
    Known = expandDims(V, S);
    V.Ops |= ViewOps::Expands;
    break;
  case torch_api::ShapeResult::Indexed:
    Known = indexDims(V, S);
    break;
  case torch_api::ShapeResult::Strided:
    if ((Known = S.Sizes && S.Strides)) {
      V.ViewDims.clear();
      for (unsigned I = 0; I < S.Sizes->getNumInits(); ++I) {
        ViewDim D;
        D.StorageDim = ViewDim::Explicit;
        D.Size = S.Sizes->getInit(I);
        D.Stride = S.Strides->getInit(I);
        V.ViewDims.push_back(D);
      }
    }
    V.Ops |= ViewOps::Strides;
    break;
  default:
    break;
  }
  if (!Known)
    return TensorLayout();
  V.View = S.Call;
  return V;
}

/// The layout of a copy (clone, to, cuda, a cast, `*_like`) of a tensor
/// laid out as `Of`: PyTorch keeps the strides of a dense tensor (a
/// reordered view too); a view with gaps or repeats is copied packed, or
/// not copied at all (`to` with nothing to change): Unknown.
TensorLayout copiedLayout(TensorLayout Of) {
  if (Of.Order == TensorOrder::View && (Of.Ops & ~unsigned(ViewOps::Reorders)))
    return TensorLayout();
  return Of;
}

TensorLayout layoutOf(const Expr *E, unsigned Depth);

/// The layout of the parameter `P`, read at `E`: row-major where a check
/// before (`TORCH_CHECK(p.is_contiguous())`) or `p = p.contiguous()` says.
TensorLayout parameterLayout(const ParmVarDecl *P, const Expr *E) {
  TensorLayout L;
  const Expr *Cond = checkedBefore(
      P, E, [&](const Expr *C) { return testsIsContiguous(C, P); });
  if (!Cond)
    Cond = statementBefore(
        P, E, [&](const Stmt *St) { return madeContiguous(St, P); });
  if (Cond) {
    L.Order = TensorOrder::RowMajor;
    L.Storage = E;
    L.StorageVar = P;
    L.Why = Cond;
    L.Dims = dimsOf(E);
  }
  return L;
}

/// The layout of the local tensor `S.Var`, read at `E`: its definition's,
/// or row-major where a check before the use proves it contiguous
/// (TORCH_CHECK(xs.is_contiguous()) on a view: row-major with its own
/// sizes).
TensorLayout localLayout(const TensorStep &S, const Expr *E, unsigned Depth) {
  TensorLayout L = layoutOf(S.Init, Depth + 1);
  if (L.Order != TensorOrder::RowMajor && !S.Written)
    if (const Expr *Cond = checkedBefore(S.Var, E, [&](const Expr *C) {
          return testsIsContiguous(C, S.Var);
        })) {
      L = TensorLayout();
      L.Order = TensorOrder::RowMajor;
      L.Why = Cond;
      L.Dims = dimsOf(E, Depth + 1);
    }
  if (L.Order == TensorOrder::RowMajor && !L.StorageVar) {
    L.Storage = E;
    L.StorageVar = S.Var;
  }
  return L;
}

TensorLayout layoutOf(const Expr *E, unsigned Depth) {
  TensorLayout L;
  if (!E || Depth > MaxDepth)
    return L;
  TensorStep S = stepOf(strip(E));
  switch (S.Kind) {
  case TensorStep::Parameter:
    return parameterLayout(cast<ParmVarDecl>(S.Var), E);
  case TensorStep::Local:
    return localLayout(S, E, Depth);
  case TensorStep::Method:
    switch (S.Shape) {
    case torch_api::ShapeResult::Same:
      return copiedLayout(layoutOf(S.Base, Depth + 1));
    case torch_api::ShapeResult::Contiguous:
      L.Order = TensorOrder::RowMajor;
      L.Storage = S.Call;
      L.Why = S.Call;
      L.Dims = dimsOf(S.Base, Depth + 1);
      return L;
    case torch_api::ShapeResult::Transposed: {
      std::optional<std::pair<int, int>> Swap = swappedDims(S.Call, S.Name);
      TensorLayout Of = layoutOf(S.Base, Depth + 1);
      if ((Of.Order == TensorOrder::RowMajor && Of.Dims && *Of.Dims >= 3) ||
          Of.Order == TensorOrder::View)
        return permutedView(Of, S);
      if (S.Name == "permute" && Swap && !Of.Dims)
        Of.Dims = 2; // permute names every dimension
      if (!Swap || Of.Order != TensorOrder::RowMajor ||
          (Of.Dims && *Of.Dims != 2) ||
          (S.Name != "t" && !(Of.Dims && Swap->first + Swap->second == 1)))
        return L;
      Of.Order = TensorOrder::Transposed;
      Of.View = S.Call;
      return Of;
    }
    case torch_api::ShapeResult::Narrowed:
    case torch_api::ShapeResult::Selected:
    case torch_api::ShapeResult::Indexed:
      // `x.index({Slice()})` is `x`.
      if (std::optional<llvm::SmallVector<BasicIndex, 4>> Indices =
              basicIndices(S.Call);
          Indices && llvm::all_of(*Indices, [](const BasicIndex &I) {
            return I.Kind == BasicIndex::All;
          }))
        return layoutOf(S.Base, Depth + 1);
      return slicedView(layoutOf(S.Base, Depth + 1), S);
    case torch_api::ShapeResult::Expanded:
    case torch_api::ShapeResult::Strided:
      return slicedView(layoutOf(S.Base, Depth + 1), S);
    case torch_api::ShapeResult::Unknown:
      // `view`/`reshape` of a row-major tensor: a row-major tensor of the
      // sizes written, its storage.
      if (S.Sizes &&
          layoutOf(S.Base, Depth + 1).Order == TensorOrder::RowMajor) {
        L.Order = TensorOrder::RowMajor;
        L.Storage = S.Call;
        L.Why = S.Call;
        L.Dims = S.Sizes->getNumInits();
      }
      return L;
    }
    return L;
  case TensorStep::Factory:
    L.Order = TensorOrder::RowMajor;
    L.Storage = S.Made;
    L.Why = S.Made;
    L.Dims = S.Sizes->getNumInits();
    return L;
  case TensorStep::Like:
    return copiedLayout(layoutOf(S.Of, Depth + 1));
  case TensorStep::Other:
    return L;
  }
  return L;
}

} // namespace

} // namespace torch_facts

std::optional<TensorAllocation> tensorAllocation(const Expr *E) {
  using namespace torch_facts;
  const VarDecl *Var = nullptr;
  for (unsigned Depth = 0; E && Depth < MaxDepth; ++Depth) {
    TensorStep S = stepOf(strip(E));
    switch (S.Kind) {
    case TensorStep::Local:
      if (!Var)
        Var = S.Var;
      E = S.Init;
      continue;
    case TensorStep::Method:
      // .contiguous() of a factory's row-major tensor: the same storage.
      if (S.Name != "contiguous")
        return std::nullopt;
      E = S.Base;
      continue;
    case TensorStep::Factory: {
      TensorAllocation A;
      A.Factory = S.Made;
      A.SizeList = S.Sizes;
      A.Var = Var;
      for (const Expr *Size : S.Sizes->inits())
        A.Sizes.push_back(Size);
      return A;
    }
    case TensorStep::Parameter:
    case TensorStep::Like:
    case TensorStep::Other:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<TensorSize> tensorSizeRead(const Expr *E) {
  using namespace torch_facts;
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  llvm::StringRef Name;
  const Expr *Base;
  if (const CXXMemberCallExpr *MC = tensorMethod(E, Name, Base)) {
    std::optional<int> Dim =
        MC->getNumArgs() == 1 ? smallConstant(MC->getArg(0)) : std::nullopt;
    return Name == "size" && Dim ? sizeOf(Base, *Dim, 0) : std::nullopt;
  }
  // t.sizes()[d]
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Op || Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
    return std::nullopt;
  const CXXMemberCallExpr *Sizes =
      tensorMethod(strip(Op->getArg(0)), Name, Base);
  std::optional<int> Dim = smallConstant(Op->getArg(1));
  if (!Sizes || Name != "sizes" || Sizes->getNumArgs() != 0 || !Dim)
    return std::nullopt;
  return sizeOf(Base, *Dim, 0);
}

std::optional<TensorSize> tensorSize(const Expr *T, int Dim) {
  return torch_facts::sizeOf(T, Dim, 0);
}

TensorLayout tensorLayout(const Expr *E) {
  return torch_facts::layoutOf(E, 0);
}

} // namespace cublas_tidy
