//===- CallGeometry.cpp - The operands of one cuBLAS call, from the facts -===//

#include "facts/CallGeometry.h"

#include "ast/AstUtils.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace cublas_tidy {

std::string ArgValue::describe(llvm::StringRef Name) const {
  const std::string &Text = Written.get();
  if (std::optional<int64_t> C = V.getConstant()) {
    std::string CS = std::to_string(*C);
    if (Text.empty() || Text == CS || Text == Name)
      return CS;
    return Text + " = " + CS;
  }
  return Text.empty() ? V.str() : Text;
}

std::string ArgValue::brief() const {
  if (std::optional<int64_t> C = V.getConstant())
    return std::to_string(*C);
  const std::string &Text = Written.get();
  return Text.empty() ? V.str() : Text;
}

CallArguments::~CallArguments() = default;

namespace {

/// The name of the enumerator of `T` with value `V`, or the number.
std::string enumeratorName(clang::QualType T, int64_t V) {
  if (!T.isNull())
    if (const auto *ET = T.getCanonicalType()->getAs<clang::EnumType>())
      if (const clang::EnumDecl *ED = ET->getDecl())
        if (const clang::EnumDecl *Def = ED->getDefinition())
          for (const clang::EnumConstantDecl *EC : Def->enumerators())
            if (EC->getInitVal().getSExtValue() == V)
              return EC->getName().str();
  return std::to_string(V);
}

class ArgumentsAtCall : public CallArguments {
public:
  ArgumentsAtCall(const clang::CallExpr *Call, const ValueFacts &Facts,
                  const clang::ASTContext &Ctx, unsigned MaxTextLength)
      : Call(Call), Facts(Facts), Ctx(Ctx), MaxTextLength(MaxTextLength) {}

  std::optional<ArgValue> value(int Index) const override {
    if (Index < 0 || unsigned(Index) >= Call->getNumArgs())
      return std::nullopt;
    const clang::Expr *E = Call->getArg(Index);
    std::optional<SymExpr> V = Facts.evaluate(E);
    if (!V)
      return std::nullopt;
    return ArgValue{*V, LazyText([E, &Ctx = Ctx, Max = MaxTextLength] {
                      return writtenText(E, Ctx, Max);
                    })};
  }

  std::string enumerator(int Index, int64_t V) const override {
    clang::QualType T;
    if (const clang::FunctionDecl *FD = Call->getDirectCallee())
      if (Index >= 0 && unsigned(Index) < FD->getNumParams())
        T = FD->getParamDecl(Index)->getType();
    return enumeratorName(T, V);
  }

private:
  const clang::CallExpr *Call;
  const ValueFacts &Facts;
  const clang::ASTContext &Ctx;
  unsigned MaxTextLength;
};

/// Arithmetic on values that keep how they are written: the dimensions of
/// the shape table ("k + 1", "max(m, n)").
struct WrittenArithmetic {
  using Value = ArgValue;
  const FunctionInfo &F;
  const CallArguments &Args;
  const SymbolBounds &Bounds;

  std::optional<Value> size(ParamRole Role) {
    std::optional<ArgValue> V = Args.value(F.findParam(Role));
    if (!V)
      return std::nullopt;
    return ArgValue{V->V, LazyText([V = *V] {
                      const std::string &Text = V.Written.get();
                      return Text.empty() ? V.V.str() : Text;
                    })};
  }
  Value constant(int64_t C) {
    return ArgValue{SymExpr::constant(C), std::to_string(C)};
  }
  std::optional<Value> add(const Value &L, const Value &R) {
    std::optional<SymExpr> V = L.V.add(R.V);
    if (!V)
      return std::nullopt;
    return ArgValue{*V, LazyText([L, R] {
                      return L.Written.get() + " + " + R.Written.get();
                    })};
  }
  std::optional<Value> sub(const Value &, const Value &) {
    return std::nullopt; // the shape table subtracts nothing
  }
  std::optional<Value> mul(const Value &, const Value &) {
    return std::nullopt; // nor multiplies
  }
  std::optional<Value> max(const Value &L, const Value &R) {
    Order O = compare(L.V, R.V, Bounds);
    LazyText Text([L, R] {
      return "max(" + L.Written.get() + ", " + R.Written.get() + ")";
    });
    if (O == Order::Equal || O == Order::Greater || O == Order::GreaterOrEqual)
      return ArgValue{L.V, Text};
    if (O == Order::Less || O == Order::LessOrEqual)
      return ArgValue{R.V, Text};
    return std::nullopt;
  }
  std::optional<int64_t> constantOf(const Value &V) {
    return V.V.getConstant();
  }
  bool provenLess(const Value &L, const Value &R) {
    return cublas_tidy::provenLess(L.V, R.V, Bounds);
  }
};

std::optional<SymExpr> symbolic(const std::optional<ArgValue> &V) {
  if (!V)
    return std::nullopt;
  return V->V;
}

} // namespace

std::unique_ptr<CallArguments> argumentsAt(const clang::CallExpr *Call,
                                           const ValueFacts &Facts,
                                           const clang::ASTContext &Ctx,
                                           unsigned MaxTextLength) {
  return std::make_unique<ArgumentsAtCall>(Call, Facts, Ctx, MaxTextLength);
}

CallGeometry::CallGeometry(const FunctionInfo &F, const CallArguments &Args)
    : F(F), Args(Args) {
  for (unsigned I = 0; I < F.NumParams; ++I) {
    ParamRole R = F.params()[I].Role;
    if (R != ParamRole::DimM && R != ParamRole::DimN && R != ParamRole::DimK &&
        R != ParamRole::LeadingDim && R != ParamRole::BatchCount)
      continue;
    if (std::optional<ArgValue> V = Args.value(I))
      if (std::optional<Symbol> S = V->V.asSymbol())
        Bounds.Positive.insert(*S);
  }

  WrittenArithmetic Dims{F, Args, Bounds};
  SymbolicArithmetic Sym{Bounds};
  for (const OperandParams &P : operandParams(F)) {
    OperandAtCall O;
    O.Params = P;
    const OperandShape &S = *P.Shape;
    std::optional<ArgValue> Flag = Args.value(P.Selector);
    std::optional<int64_t> FlagValue =
        Flag ? Flag->V.getConstant() : std::nullopt;
    if (S.Selector == ShapeSelector::None || FlagValue) {
      unsigned Sel = 0;
      if (FlagValue) {
        Sel = selectedShape(S.Selector, *FlagValue);
        O.SelectorText = " for " + std::string(F.params()[P.Selector].Name) +
                         "=" + Args.enumerator(P.Selector, *FlagValue);
      }
      O.Rows = dimension(S.Rows[Sel], Dims);
      O.Cols = dimension(S.Cols[Sel], Dims);
      O.RowDim = S.Rows[Sel];
      O.ColDim = S.Cols[Sel];
    } else {
      // Unknown flag: only a dimension both shapes agree on.
      std::optional<ArgValue> R0 = dimension(S.Rows[0], Dims),
                              R1 = dimension(S.Rows[1], Dims);
      std::optional<ArgValue> C0 = dimension(S.Cols[0], Dims),
                              C1 = dimension(S.Cols[1], Dims);
      if (R0 && R1 && R0->V == R1->V) {
        O.Rows = R0;
        if (S.Rows[0] == S.Rows[1])
          O.RowDim = S.Rows[0];
      }
      if (C0 && C1 && C0->V == C1->V) {
        O.Cols = C0;
        if (S.Cols[0] == S.Cols[1])
          O.ColDim = S.Cols[0];
      }
    }
    O.Ld = Args.value(P.Ld);
    O.Inc = Args.value(P.Inc);
    O.Stride = Args.value(P.Stride);
    O.Count = Args.value(P.Count);

    std::optional<int64_t> ElemSize;
    if (std::optional<ArgValue> V = Args.value(P.ElemSize))
      ElemSize = V->V.getConstant();
    const DataTypeInfo *Type = nullptr;
    if (std::optional<ArgValue> V = Args.value(P.DataType))
      if (std::optional<int64_t> C = V->V.getConstant())
        Type = dataTypeByName(Args.enumerator(P.DataType, *C));
    O.Element = operandElement(F, P, ElemSize, Type);
    if (O.Element.Bytes)
      O.Plural = O.Element.Type ? O.Element.Type->Plural
                                : std::to_string(O.Element.Bytes) +
                                      "-byte elements";

    O.Member = memberElements(S.Kind, symbolic(O.Rows), symbolic(O.Cols),
                              symbolic(S.Kind == ShapeKind::Vector ? O.Inc
                                                                   : O.Ld),
                              Sym);
    if (O.Member)
      O.Total = F.StridedBatched
                    ? stridedElements(*O.Member, symbolic(O.Stride),
                                      symbolic(O.Count), Sym)
                    : O.Member;
    Operands.push_back(std::move(O));
  }
}

bool sideBySideInRows(const OperandAtCall &O, const SymbolBounds &Bounds) {
  if (!O.Rows || !O.Ld || !O.Stride || !O.Count)
    return false;
  auto AtMost = [&](const SymExpr &L, const SymExpr &R) {
    Order Ord = compare(L, R, Bounds);
    return Ord == Order::Less || Ord == Order::Equal ||
           Ord == Order::LessOrEqual;
  };
  std::optional<SymExpr> Before = O.Count->V.sub(SymExpr::constant(1));
  std::optional<SymExpr> Span = Before ? O.Stride->V.mul(*Before) : Before;
  std::optional<SymExpr> End = Span ? Span->add(O.Rows->V) : Span;
  return End && AtMost(O.Rows->V, O.Stride->V) && AtMost(*End, O.Ld->V);
}

} // namespace cublas_tidy
