#!/usr/bin/env python3
"""Generate lib/model/CublasApi.def, the cuBLAS API model, from the CUDA headers.

Reads cublas_api.h, cublasLt.h and cublasXt.h, and the neighbours every
cuBLAS user calls, cusolverDn.h and cusparse.h, from --include DIR (default:
$CUDA_PATH/include, else /usr/local/cuda/include), finds every
`... CUBLASWINAPI name(params);` declaration (CUSOLVERAPI, CUSPARSEAPI in the
neighbours; all #if branches are taken) and the `static inline` helpers of
cublas_api.h, classifies every parameter and writes the X-macro table read by
lib/model/CublasApi.h. The neighbours' rows follow cuBLAS's, so that a cuBLAS
row keeps its index.

  gen-api-model.py [-o FILE]          write the table (default: stdout)
  gen-api-model.py --check FILE       exit 1 with a unified diff when FILE is
                                      not what would be generated, else 0
  gen-api-model.py --self-test        print a summary and run consistency and
                                      spot checks against the headers

Besides the roles, each row carries the C signature of the function
(CUBLAS_SIGNATURE: return type, parameter declarations, argument names), from
which integration/tracer/ generates its interposers. The `static inline` Init
helpers of cublasLt.h (cublasLtMatmulPreferenceInit, ...) are rows too: they
use a descriptor as any other call does. They are defined in the header and
have no symbol, so their signature is written CUBLAS_INLINE_SIGNATURE instead:
a consumer that defines only CUBLAS_SIGNATURE (the tracer's interposers) does
not see them.

Standard library only; the output depends only on the headers.
"""

import argparse
import difflib
import os
import re
import sys
from collections import Counter, OrderedDict

HEADERS = (
    ("cublas_api.h", "Classic"),
    ("cublasLt.h", "Lt"),
    ("cublasXt.h", "Xt"),
    ("cusolverDn.h", "SolverDn"),
    ("cusparse.h", "Sparse"),
)
# The families of the neighbouring libraries: their parameters are
# classified by classify_neighbour.
NEIGHBOURS = ("SolverDn", "Sparse")
# The calling-convention macro before each declared name.
API_MACRO = r"\b(?:CUBLASWINAPI|CUSOLVERAPI|CUSPARSEAPI)\s+([A-Za-z_]\w*)\s*\("
# What a status-returning function returns, per library.
STATUS_TYPES = ("cublasStatus_t", "cusolverStatus_t", "cusparseStatus_t")

# --------------------------------------------------------------------------
# Header parsing
# --------------------------------------------------------------------------


def strip_comments(text):
    """Removes // and /* */ comments, keeping string literals and newlines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            end = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, end))
            i = end
        elif text[i] in "\"'":
            q = text[i]
            j = i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def strip_directives(text):
    """Blanks preprocessor lines (with continuations). Every branch of every
    #if/#ifdef is thereby kept, which is what we want: take all of them."""
    lines = text.split("\n")
    out = []
    cont = False
    for line in lines:
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def matching_paren(text, open_pos):
    depth = 0
    for j in range(open_pos, len(text)):
        c = text[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced parentheses at offset %d" % open_pos)


def split_top_level(params):
    parts, depth, cur = [], 0, []
    for c in params:
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    return [" ".join(p.split()) for p in parts]


# Tokens that can never be a parameter name.
NOT_A_NAME = {
    "const", "volatile", "struct", "enum", "union", "unsigned", "signed",
    "int", "char", "short", "long", "float", "double", "void", "bool",
    "restrict", "__restrict", "__restrict__",
}
QUALIFIERS = {"const", "volatile", "struct", "enum", "union", "restrict",
              "__restrict", "__restrict__"}


def parse_param(text, index):
    """Returns (type, name) for one parameter declaration."""
    # Function pointer: ret (*name)(args)
    m = re.match(r"^(.*?)\(\s*\*\s*(\w*)\s*\)\s*(\(.*\))\s*$", text)
    if m:
        name = m.group(2) or "arg%d" % index
        return " ".join((m.group(1) + "(*)" + m.group(3)).split()), name
    arrays = ""
    m = re.match(r"^(.*?)((?:\s*\[[^\]]*\])+)\s*$", text)
    if m:
        text, arrays = m.group(1), "".join(m.group(2).split())
    toks = re.findall(r"[A-Za-z_]\w*|\*|&|::|[^\s\w]", text)
    name = None
    if toks and re.match(r"^[A-Za-z_]\w*$", toks[-1]) and toks[-1] not in NOT_A_NAME:
        before = toks[:-1]
        # A name needs a type before it; `size_t` or `const cudaDataType`
        # alone is an unnamed parameter.
        if any(t not in QUALIFIERS for t in before):
            name = toks[-1]
            text = text[:text.rfind(name)]
    typ = " ".join(text.split())
    typ = re.sub(r"\s*\*", "*", typ)
    if arrays:
        typ += " " + arrays if not typ.endswith("*") else arrays
    return typ.strip(), (name or "arg%d" % index)


class Decl:
    def __init__(self, header, family, ret, name, params, inline, order):
        self.header = header
        self.family = family
        self.ret = ret
        self.name = name
        self.params = params  # list of (type, name)
        self.inline = inline
        self.order = order
        # The doc comment lists CUBLAS_STATUS_SUCCESS as its only \retval.
        self.only_success = False


def parse_params(ptext):
    ptext = " ".join(ptext.split())
    if ptext in ("", "void"):
        return []
    return [parse_param(p, i) for i, p in enumerate(split_top_level(ptext))]


def declarator(typ, name):
    """The declaration of parameter `name` of type `typ` (as parse_param
    normalised it): `const float* const Aarray[]`, `void(*cb)(int)`."""
    m = re.match(r"^(.*?)\(\*\)(\(.*\))$", typ)
    if m:
        return "%s(*%s)%s" % (m.group(1), name, m.group(2))
    m = re.match(r"^(.*?)\s*((?:\[[^\]]*\])+)$", typ)
    if m:
        return "%s %s%s" % (m.group(1), name, m.group(2))
    return "%s %s" % (typ, name)


def parse_header(path, header, family):
    """The declarations of one header (each knowing whether its doc comment
    lists only success), the cuBLAS version it defines, and its attribute
    enums (attribute_enums)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    text = strip_directives(strip_comments(raw))
    decls = []
    for m in re.finditer(API_MACRO, text):
        close = matching_paren(text, m.end() - 1)
        tail = text[close + 1:close + 40].lstrip()
        if not tail.startswith(";"):
            continue  # not a plain declaration
        start = max(text.rfind(c, 0, m.start()) for c in ";{}")
        ret = text[start + 1:m.start()]
        if "typedef" in ret.split():
            continue
        ret = re.sub(r'\bextern\s+"C"', " ", ret)
        ret = re.sub(r"\b(CUBLASAPI|extern)\b", " ", ret)
        # cusparse.h and cusolverDn.h mark deprecated functions before the
        # return type: CUSPARSE_DEPRECATED(cusparseSpMV), CUSOLVER_DEPRECATED_.
        ret = re.sub(r"\b(CUSPARSE|CUSOLVER)_DEPRECATED\w*\s*(\([^()]*\))?",
                     " ", ret)
        ret = re.sub(r"\s*\*", "*", " ".join(ret.split())).strip()
        decls.append(Decl(header, family, ret, m.group(1),
                          parse_params(text[m.end():close]), False, m.start()))
    for m in re.finditer(r"\bstatic\s+inline\s+([^;{}()]*?)\b([A-Za-z_]\w*)\s*\(",
                         text):
        close = matching_paren(text, m.end() - 1)
        if not text[close + 1:close + 40].lstrip().startswith("{"):
            continue
        ret = re.sub(r"\s*\*", "*", " ".join(m.group(1).split())).strip()
        decls.append(Decl(header, family, ret, m.group(2),
                          parse_params(text[m.end():close]), True, m.start()))
    decls.sort(key=lambda d: d.order)
    succeed = only_success(raw)
    for d in decls:
        d.only_success = d.name in succeed
    version = {}
    for key in ("MAJOR", "MINOR", "PATCH", "BUILD"):
        vm = re.search(r"#\s*define\s+CUBLAS_VER_%s\s+(\d+)" % key, raw)
        if vm:
            version[key] = vm.group(1)
    return decls, version, attribute_enums(raw)


# --------------------------------------------------------------------------
# What the doc comments of cublasLt.h say
# --------------------------------------------------------------------------

# A doc comment, then a declaration of a function that returns a status.
DOC_DECL = re.compile(
    r"/\*\*((?:(?!\*/).)*?)\*/\s*(?:cublasStatus_t)\s+CUBLASWINAPI\s+(\w+)\s*\(",
    re.S)


def only_success(raw):
    """Names of the functions whose doc comment lists CUBLAS_STATUS_SUCCESS
    as their only \\retval: nothing else is documented to come back."""
    names = set()
    for m in DOC_DECL.finditer(raw):
        retvals = re.findall(r"\\retval\s+(\w+)", m.group(1))
        if retvals and set(retvals) == {"CUBLAS_STATUS_SUCCESS"}:
            names.add(m.group(2))
    return names


# The storage an attribute's doc comment names, at the start of one of its
# lines (`uint32_t, default: ...`, `const void *, default: NULL`), in bytes
# on the 64-bit targets CUDA 13 supports. Arrays, and types this table
# does not know, have none.
ATTRIBUTE_STORAGE = (
    (r"(?:const\s+)?(?:void|char|u?int(?:8|16|32|64)_t|float|double)\s*\*", 8),
    (r"cublasLtEmulationDesc_t\b", 8),
    (r"u?int8_t\b", 1),
    (r"u?int16_t\b", 2),
    (r"(?:u?int32_t|float)\b", 4),
    (r"(?:u?int64_t|double)\b", 8),
)


def storage_bytes(comment):
    """The size of the attribute a doc comment describes, or None when its
    lines name no storage, or storages of different sizes."""
    sizes = set()
    for line in comment.split("\n"):
        line = line.strip().lstrip("*").strip()
        # `Bias case: const void *`, `Forward pass: void *`
        line = re.sub(r"^[A-Za-z ]+:\s*", "", line)
        if line.startswith("array of"):
            return None
        for pattern, size in ATTRIBUTE_STORAGE:
            if re.match(pattern, line):
                sizes.add(size)
                break
    return sizes.pop() if len(sizes) == 1 else None


def attribute_enums(raw):
    """{enum type name: [(enumerator, value, bytes)]} of the `typedef enum
    {...} cublasLt...Attribute(s)_t;` of cublasLt.h, for the enumerators
    whose storage their doc comment names."""
    enums = {}
    for m in re.finditer(r"typedef\s+enum\s*\{((?:(?!typedef).)*?)\}\s*"
                         r"(cublasLt\w*Attributes?_t)\s*;", raw, re.S):
        rows = []
        value = -1
        for e in re.finditer(r"/\*\*((?:(?!\*/).)*?)\*/\s*(CUBLASLT_\w+)"
                             r"\s*(?:=\s*(\d+))?\s*,", m.group(1), re.S):
            value = int(e.group(3)) if e.group(3) is not None else value + 1
            size = storage_bytes(e.group(1))
            if size is not None:
                rows.append((e.group(2), value, size))
        enums[m.group(2)] = rows
    return enums


# --------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------

# Functions of cublasLt.h whose name ends in Init_internal, and inline helpers
# of cublas_api.h that are not a real entry point, get an out-of-scope row.
INIT_INTERNAL_REASON = ("initialises caller-owned opaque storage; the public "
                        "Init wrappers are inline and call it")
INLINE_REASON = {
    "cublasMigrateComputeType":
        "inline helper defined in the header (maps a cudaDataType_t to a "
        "cublasComputeType_t); not a library entry point",
}
DEFAULT_INLINE_REASON = "inline helper defined in the header; not a library entry point"

# The inline Init helpers of cublasLt.h: name -> the ResourceKind of the
# descriptor they (re)initialise in place, their first parameter. Each is a
# row (the descriptor is a Resource, used by value), marked inline.
INIT_HELPERS = {
    "cublasLtMatrixLayoutInit": "LtMatrixLayout",
    "cublasLtMatmulDescInit": "LtMatmulDesc",
    "cublasLtMatrixTransformDescInit": "LtMatrixTransformDesc",
    "cublasLtEmulationDescInit": "LtEmulationDesc",
    "cublasLtMatmulPreferenceInit": "LtMatmulPreference",
}

# Name -> ResourceKind for the Create/Destroy pairs.
CREATES = {
    "cublasCreate_v2": "Handle",
    "cublasLtCreate": "LtHandle",
    "cublasXtCreate": "XtHandle",
    "cublasLtMatmulDescCreate": "LtMatmulDesc",
    "cublasLtMatrixLayoutCreate": "LtMatrixLayout",
    "cublasLtMatmulPreferenceCreate": "LtMatmulPreference",
    "cublasLtMatrixTransformDescCreate": "LtMatrixTransformDesc",
    "cublasLtEmulationDescCreate": "LtEmulationDesc",
}
DESTROYS = {
    "cublasDestroy_v2": "Handle",
    "cublasLtDestroy": "LtHandle",
    "cublasXtDestroy": "XtHandle",
    "cublasLtMatmulDescDestroy": "LtMatmulDesc",
    "cublasLtMatrixLayoutDestroy": "LtMatrixLayout",
    "cublasLtMatmulPreferenceDestroy": "LtMatmulPreference",
    "cublasLtMatrixTransformDescDestroy": "LtMatrixTransformDesc",
    "cublasLtEmulationDescDestroy": "LtEmulationDesc",
}
RESOURCE_TYPES = {
    "cublasHandle_t": "Handle",
    "cublasLtHandle_t": "LtHandle",
    "cublasXtHandle_t": "XtHandle",
    "cublasLtMatmulDesc_t": "LtMatmulDesc",
    "cublasLtMatrixLayout_t": "LtMatrixLayout",
    "cublasLtMatmulPreference_t": "LtMatmulPreference",
    "cublasLtMatrixTransformDesc_t": "LtMatrixTransformDesc",
    "cublasLtEmulationDesc_t": "LtEmulationDesc",
}

# The neighbours' handles and descriptors: type -> ResourceKind. The const
# descriptor types of cuSPARSE's generic API name the same kind.
NEIGHBOUR_RESOURCE_TYPES = {
    "cusolverDnHandle_t": "SolverDnHandle",
    "cusolverDnParams_t": "SolverDnParams",
    "syevjInfo_t": "SolverSyevjInfo",
    "gesvdjInfo_t": "SolverGesvdjInfo",
    "cusparseHandle_t": "SparseHandle",
    "cusparseMatDescr_t": "SparseMatDescr",
    "cusparseSpVecDescr_t": "SparseSpVec",
    "cusparseConstSpVecDescr_t": "SparseSpVec",
    "cusparseDnVecDescr_t": "SparseDnVec",
    "cusparseConstDnVecDescr_t": "SparseDnVec",
    "cusparseSpMatDescr_t": "SparseSpMat",
    "cusparseConstSpMatDescr_t": "SparseSpMat",
    "cusparseDnMatDescr_t": "SparseDnMat",
    "cusparseConstDnMatDescr_t": "SparseDnMat",
    "cusparseSpSVDescr_t": "SparseSpSV",
    "cusparseSpSMDescr_t": "SparseSpSM",
    "cusparseSpGEMMDescr_t": "SparseSpGEMM",
}
RESOURCE_TYPES.update(NEIGHBOUR_RESOURCE_TYPES)
# A neighbour's Create or Destroy: its name, and exactly one parameter of a
# resource type (a pointer to it for a Create, the value for a Destroy).
NEIGHBOUR_CREATE = re.compile(r"^(cusolverDn|cusparse)\w*(Create|_createDescr)\w*$")
NEIGHBOUR_DESTROY = re.compile(r"^(cusolverDn|cusparse)\w*(Destroy|_destroyDescr)\w*$")


def neighbour_resource(decl, pattern, depth):
    """The ResourceKind that `decl`, a neighbour's Create (depth 1) or
    Destroy (depth 0), makes or releases; "None" when it is neither."""
    if decl.family not in NEIGHBOURS or not pattern.match(decl.name):
        return "None"
    kinds = [RESOURCE_TYPES[b] for b, d in (base_type(t) for t, _n in decl.params)
             if b in NEIGHBOUR_RESOURCE_TYPES and d == depth]
    return kinds[0] if len(kinds) == 1 else "None"


def creates_of(decl):
    return CREATES.get(decl.name) or neighbour_resource(decl, NEIGHBOUR_CREATE, 1)


def destroys_of(decl):
    return DESTROYS.get(decl.name) or neighbour_resource(decl, NEIGHBOUR_DESTROY, 0)


# Legacy cuSOLVER routines carry their precision after the prefix
# (cusolverDnSgetrf): the element type their workspace size counts in.
SOLVER_PREFIX_ELEM = {"S": "F32", "D": "F64", "C": "C32", "Z": "C64"}


def neighbour_elem(name, family):
    """The element type of a neighbour's routine, where its name fixes it:
    a legacy cusolverDn<t> routine. "None" otherwise."""
    if family != "SolverDn" or NEIGHBOUR_CREATE.match(name) \
            or NEIGHBOUR_DESTROY.match(name):
        return "None"  # cusolverDnCreate: C, then a lowercase tail
    m = re.match(r"^cusolverDn([SDCZ])[a-z0-9]+(StridedBatched|Batched)?"
                 r"(_bufferSize)?$", name)
    return SOLVER_PREFIX_ELEM[m.group(1)] if m else "None"


# Sizes of workspaces, by parameter name. In a _bufferSize query the
# parameter is an output; in the routine it is the size given.
SOLVER_ELEMENT_SIZES = {"lwork", "Lwork"}                 # int: elements
BYTE_SIZES = {"lwork_bytes", "workspaceInBytesOnDevice", "bufferSize",
              "bufferSize1", "bufferSize2", "bufferSize3", "bufferSize4",
              "bufferSize5",
              "bufferSizeInBytes", "pBufferSizeInBytes", "pBufferSize"}
DEVICE_WORKSPACES = {"work", "Workspace", "dWorkspace", "bufferOnDevice",
                     "externalBuffer", "externalBuffer1", "externalBuffer2",
                     "externalBuffer3", "externalBuffer4", "externalBuffer5",
                     "pBuffer"}
SOLVER_INFOS = {"info", "devInfo", "d_info", "infoArray"}
# The descriptors of cuSPARSE's generic API wrap device arrays: the ones
# they are created with, and the ones their Set functions give them.
SPARSE_ARRAY_KINDS = {"SparseSpMat", "SparseSpVec", "SparseDnVec", "SparseDnMat"}
SPARSE_ARRAY_SETTERS = re.compile(r"^cusparse\w+Set(Pointers|Values)$")
# cuSPARSE steps that take alpha and beta but do not read them: the size
# queries, the analyses and the preprocessing.
SPARSE_NO_SCALAR_READ = re.compile(
    r"_(bufferSize|bufferSizeExt|analysis|preprocess|workEstimation|"
    r"estimateMemory)$")


def classify_neighbour(ctx, typ, pname):
    """Returns (Role, Operand) for a cuSOLVER or cuSPARSE parameter. Only
    what the rules read is classified: handles and descriptors, streams,
    workspaces and their sizes, cuSOLVER's devInfo and pivots, and
    cuSPARSE's scalars with its pointer mode. Matrices and vectors stay
    Other: their shapes are not modelled."""
    btype, depth = base_type(typ)
    query = ctx.name.endswith(("_bufferSize", "_bufferSizeExt"))
    if pname in SOLVER_ELEMENT_SIZES and ctx.family == "SolverDn" \
            and btype == "int":
        if depth == 1 and query:
            return "WorkspaceElementsOut", "None"
        if depth == 0 and not query:
            return "WorkspaceElements", "None"
    if pname == "workspaceInBytesOnHost" and depth == 1 and query:
        return "HostWorkspaceSizeOut", "None"
    if pname in BYTE_SIZES and btype in ("size_t", "int"):
        if depth == 1 and query:
            return "WorkspaceSizeOut", "None"
        # cuSPARSE's SpGEMM asks and uses its buffers through the same call:
        # with a null buffer it writes the size, with a buffer it reads it.
        if depth == 1 and not query and btype == "size_t" \
                and ctx.family == "Sparse":
            return "WorkspaceSizeInOut", "None"
        if depth == 0 and not query and btype == "size_t":
            return "WorkspaceSize", "None"
    if pname in DEVICE_WORKSPACES and depth == 1 and not query:
        return "DeviceWorkspace", "None"
    if ctx.family == "Sparse":
        if btype == "cusparsePointerMode_t" and depth == 0:
            return "PointerMode", "None"
        # cuSPARSE reads alpha and beta, and writes cusparseSpVV's result,
        # by its handle's pointer mode; only the routines that compute do.
        if depth == 1 and not SPARSE_NO_SCALAR_READ.search(ctx.name):
            if pname in ("alpha", "beta"):
                return "Scalar", "None"
            if pname == "result":
                return "ScalarResult", "None"
    if ctx.family == "Sparse" and depth == 1 and btype in ("void", "int") \
            and (ctx.creates in SPARSE_ARRAY_KINDS
                 or SPARSE_ARRAY_SETTERS.match(ctx.name)):
        return "DeviceVector", "None"
    if ctx.family == "SolverDn" and depth == 1 \
            and btype in ("int", "int64_t", "cusolver_int_t"):
        if pname in SOLVER_INFOS and btype != "int64_t":
            return "DeviceVector", "Info"
        if pname in ("devIpiv", "ipiv", "dipiv"):
            return "DeviceVector", "Pivot"
    return "Other", "None"


# BLAS routine bases (lowercase) that may follow a precision prefix.
KNOWN_ROUTINES = {
    # Level 1
    "amax", "amin", "asum", "axpy", "copy", "dot", "dotu", "dotc", "nrm2",
    "rot", "rotg", "rotm", "rotmg", "scal", "swap",
    # Level 2
    "gbmv", "gemv", "ger", "geru", "gerc", "sbmv", "spmv", "spr", "spr2",
    "symv", "syr", "syr2", "tbmv", "tbsv", "tpmv", "tpsv", "trmv", "trsv",
    "hbmv", "hemv", "hpmv", "her", "her2", "hpr", "hpr2",
    # Level 3
    "gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trsm", "trmm",
    "spmm",
    # Extensions
    "gemm3m", "syrk3m", "herk3m", "syrkx", "herkx", "geam", "dgmm", "tpttr",
    "trttp", "getrf", "getrs", "getri", "matinv", "geqrf", "gels",
    "gemmgrouped", "gemmbias",
}
# Precision prefix -> element type of the matrix/vector operands.
PREFIX_ELEM = OrderedDict([
    ("Uint8", "Dynamic"),  # unsigned char operands: no ElemType for them
    ("HSH", "F16"), ("HSS", "F16"),  # matrix A is __half
    ("TST", "Dynamic"), ("TSS", "Dynamic"),  # __nv_bfloat16: no ElemType
    ("Sc", "C32"), ("Dz", "C64"), ("Cs", "C32"), ("Zd", "C64"),
    ("S", "F32"), ("D", "F64"), ("C", "C32"), ("Z", "C64"), ("H", "F16"),
])
I_PREFIX_ELEM = {"s": "F32", "d": "F64", "c": "C32", "z": "C64"}

SET_GET = {"SetVector": "setvector", "GetVector": "getvector",
           "SetMatrix": "setmatrix", "GetMatrix": "getmatrix"}
LT_ROUTINES = {"Matmul": "matmul", "MatrixTransform": "matrixtransform"}


def routine_and_prefix_elem(name, family):
    """Returns (routine, elem-from-prefix or None)."""
    base = name[len("cublas"):]
    if family in ("Lt", "Xt") and base.startswith(family):
        base = base[2:]
    if base.endswith("_64"):
        base = base[:-3]
    if base.endswith("_v2"):
        base = base[:-3]
    if family == "Lt":
        return LT_ROUTINES.get(base, ""), None
    sg = re.match(r"^(Set|Get)(Vector|Matrix)(Async)?$", base)
    if sg:
        return SET_GET[sg.group(1) + sg.group(2)], None
    if base.endswith("Ex"):
        base = base[:-2]
    for suffix in ("StridedBatched", "Batched"):
        if base.endswith(suffix):
            base = base[:-len(suffix)]
            break
    m = re.match(r"^I([sdcz])(amax|amin)$", base)
    if m:
        return m.group(2), I_PREFIX_ELEM[m.group(1)]
    m = re.match(r"^I(amax|amin)$", base)
    if m:
        return m.group(1), None
    if base and base[0].isupper() and base.lower() in KNOWN_ROUTINES \
            and not any(base.startswith(p) and base[len(p):].lower() in KNOWN_ROUTINES
                        and base[len(p):][:1].islower() for p in PREFIX_ELEM):
        return base.lower(), None  # Ex form without precision, e.g. GemmEx
    matches = []
    for prefix, elem in PREFIX_ELEM.items():
        rest = base[len(prefix):]
        if base.startswith(prefix) and rest[:1].islower() \
                and rest.lower() in KNOWN_ROUTINES:
            matches.append((rest.lower(), elem))
    if len(matches) > 1:
        raise SystemExit("ambiguous precision prefix in %s: %r" % (name, matches))
    if matches:
        return matches[0]
    return "", None


def base_type(typ):
    """`const float* const` -> `float`; pointer depth returned separately."""
    t = re.sub(r"\b(const|volatile|struct|enum)\b", " ", typ)
    depth = t.count("*") + t.count("[")
    t = " ".join(t.replace("*", " ").replace("[]", " ").split())
    t = re.sub(r"\[[^\]]*\]", "", t).strip()
    return t, depth


DIMS = {"m": "DimM", "n": "DimN", "k": "DimK", "kl": "DimKL", "ku": "DimKU"}
LEADING = {"lda": "A", "ldb": "B", "ldc": "C", "ldd": "D"}
INCREMENTS = {"incx": "X", "incy": "Y"}
STRIDES = {"strideA": "A", "strideB": "B", "strideC": "C", "strideD": "D",
           "stridex": "X", "stridey": "Y"}
MATRICES = {"A": "A", "AP": "A", "B": "B", "C": "C", "D": "D",
            "Aarray": "A", "Barray": "B", "Carray": "C", "Darray": "D"}
VECTORS = {"x": "X", "y": "Y", "xarray": "X", "yarray": "Y"}
TYPES = {"atype": "A", "btype": "B", "ctype": "C", "dtype": "D",
         "xtype": "X", "ytype": "Y", "resulttype": "Result",
         "alphatype": "Alpha"}
COMPUTE_TYPES = {"computetype", "executiontype"}
LT_LAYOUT = {"rows": "DimM", "cols": "DimN", "ld": "LeadingDim"}
OPERATIONS = {"transa": "A", "transb": "B", "trans": "A", "transc": "C"}
FLAG_TYPES = {"cublasFillMode_t": "Fill", "cublasSideMode_t": "Side",
              "cublasDiagType_t": "Diag"}
RESULT_ROUTINES = {"dot", "dotu", "dotc", "nrm2", "asum", "amax", "amin"}
# Where cuBLAS documents `info` as a host pointer (a single int).
HOST_INFO_ROUTINES = {"gels", "geqrf", "getrs"}
DEVICE_INFO_NAMES = {"infoArray", "devInfoArray"}
PIVOTS = {"P", "PivotArray", "devIpiv"}
# Device pointer arrays whose operand has no Operand enumerator.
UNNAMED_POINTER_ARRAYS = {"Ainv", "TauArray"}


class Ctx:
    def __init__(self, decl, routine):
        self.decl = decl
        self.name = decl.name
        self.family = decl.family
        self.routine = routine
        self.creates = creates_of(decl)
        self.destroys = destroys_of(decl)
        # The kind of descriptor an inline Init helper initialises.
        self.inits = INIT_HELPERS.get(decl.name, "None")
        # A routine that is not a Set/Get copy: its operands follow BLAS
        # naming (A, B, C, x, y, lda, incx, ...).
        self.blas = routine != "" and routine not in SET_GET.values()


def classify(ctx, idx, typ, pname):
    """Returns (Role, Operand) for parameter `idx` of ctx.decl."""
    btype, depth = base_type(typ)
    lname = pname.lower()

    # Resources.
    if btype in RESOURCE_TYPES:
        kind = RESOURCE_TYPES[btype]
        if depth == 1 and ctx.creates == kind:
            return "ResourceOut", "None"
        if depth == 0 and ctx.destroys == kind:
            return "ResourceDestroyed", "None"
        if depth == 0:
            if ctx.routine in ("matmul", "matrixtransform") \
                    and btype == "cublasLtMatrixLayout_t":
                m = re.match(r"^([ABCD])desc$", pname)
                if m:
                    return "Resource", m.group(1)
            return "Resource", "None"
        return "Other", "None"
    if btype == "cudaStream_t":
        # cublasGetStream's out pointer is not a stream argument.
        return ("Stream", "None") if depth == 0 else ("Other", "None")
    if ctx.family in NEIGHBOURS:
        return classify_neighbour(ctx, typ, pname)
    if btype == "cublasPointerMode_t" and depth == 0:
        return "PointerMode", "None"
    if pname == "workspace" and depth == 1:
        return "DeviceWorkspace", "None"
    if pname == "workspaceSizeInBytes" and depth == 0:
        return "WorkspaceSize", "None"

    # Types (cudaDataType_t / cublasComputeType_t arguments).
    if btype in ("cudaDataType", "cudaDataType_t", "cublasComputeType_t") \
            and depth == 0:
        if lname in TYPES:
            return "DataType", TYPES[lname]
        if lname in COMPUTE_TYPES:
            return "ComputeType", "None"
        return "Other", "None"

    # cublasLtMatrixLayoutCreate(layout, type, rows, cols, ld) and
    # cublasLtMatrixLayoutInit(layout, type, rows, cols, ld): the shape of the
    # matrix the layout describes.
    if "LtMatrixLayout" in (ctx.creates, ctx.inits) and depth == 0 \
            and pname in LT_LAYOUT:
        return LT_LAYOUT[pname], "None"

    r = ctx.routine
    # Set/Get matrix/vector: positional, host/device by direction.
    if r in ("setvector", "getvector", "setmatrix", "getmatrix"):
        return classify_set_get(ctx, idx, pname)
    if not ctx.blas:
        return "Other", "None"

    # Lt operations.
    if r in ("matmul", "matrixtransform"):
        if pname in ("A", "B", "C", "D"):
            return "DeviceMatrix", pname
        if pname in ("alpha", "beta"):
            return "Scalar", pname.capitalize()
        if pname == "transformScale":
            return "Scalar", "None"
        return "Other", "None"

    # Flags.
    if btype == "cublasOperation_t" and depth == 0 and pname in OPERATIONS:
        return "Operation", OPERATIONS[pname]
    if btype in FLAG_TYPES and depth == 0:
        return FLAG_TYPES[btype], "None"

    # Grouped batched gemm: per-group host arrays.
    if r == "gemmgrouped":
        if pname.endswith("_array") or pname == "group_size":
            return "HostArray", "None"
        if pname in ("Aarray", "Barray", "Carray"):
            return "DevicePointerArray", MATRICES[pname]
        return "Other", "None"

    # Sizes.
    if depth == 0:
        if pname in DIMS:
            return DIMS[pname], "None"
        if pname in ("batchCount", "batchSize"):
            return "BatchCount", "None"
        if pname in LEADING:
            return "LeadingDim", LEADING[pname]
        if pname in INCREMENTS:
            return "Increment", INCREMENTS[pname]
        if pname in STRIDES:
            return "BatchStride", STRIDES[pname]
        return "Other", "None"

    # Memory.
    if ctx.family == "Xt":
        if pname in MATRICES:
            return "AnyMemory", MATRICES[pname]
        if pname in ("alpha", "beta"):
            return "HostScalar", pname.capitalize()
        return "Other", "None"
    is_array = depth >= 2
    if pname in MATRICES:
        return ("DevicePointerArray" if is_array else "DeviceMatrix"), MATRICES[pname]
    if pname in VECTORS:
        return ("DevicePointerArray" if is_array else "DeviceVector"), VECTORS[pname]
    if pname in UNNAMED_POINTER_ARRAYS and is_array:
        return "DevicePointerArray", "None"
    if pname in ("alpha", "beta"):
        return "Scalar", pname.capitalize()
    if pname == "result" and r in RESULT_ROUTINES:
        return "ScalarResult", "Result"
    if r in ("rot", "rotm") and pname in ("c", "s", "param"):
        return "Scalar", "None"
    if r == "rotg" and pname in ("a", "b", "c", "s"):
        return "ScalarResult", "None"
    if r == "rotmg":
        if pname in ("d1", "d2", "x1", "param"):
            return "ScalarResult", "None"
        if pname == "y1":
            return "Scalar", "None"  # read only (const), per pointer mode
    if pname in PIVOTS and depth == 1:
        return "DeviceVector", "Pivot"
    if pname in DEVICE_INFO_NAMES:
        return "DeviceVector", "Info"
    if pname == "info":
        if r in HOST_INFO_ROUTINES:
            return "HostArray", "Info"
        if r in ("getrf", "getri", "matinv"):
            return "DeviceVector", "Info"
    return "Other", "None"


def classify_set_get(ctx, idx, pname):
    r = ctx.routine
    to_device = r.startswith("set")
    if r.endswith("vector"):
        # (n, elemSize, src, incx, dst, incy[, stream])
        if idx == 0:
            return "DimN", "None"
        if idx == 1:
            return "ElemSize", "None"
        if idx == 3:
            return "Increment", "X"
        if idx == 5:
            return "Increment", "Y"
        if idx == 2:
            return ("HostVector" if to_device else "DeviceVector"), "X"
        if idx == 4:
            return ("DeviceVector" if to_device else "HostVector"), "Y"
    else:
        # (rows, cols, elemSize, A, lda, B, ldb[, stream])
        if idx == 0:
            return "DimM", "None"
        if idx == 1:
            return "DimN", "None"
        if idx == 2:
            return "ElemSize", "None"
        if idx == 4:
            return "LeadingDim", "A"
        if idx == 6:
            return "LeadingDim", "B"
        if idx == 3:
            return ("HostMatrix" if to_device else "DeviceMatrix"), "A"
        if idx == 5:
            return ("DeviceMatrix" if to_device else "HostMatrix"), "B"
    return "Other", "None"


EXPECTED_SET_GET_NAMES = {
    "vector": ("n", "elemSize", None, "incx", None, "incy"),
    "matrix": ("rows", "cols", "elemSize", "A", "lda", "B", "ldb"),
}


class Row:
    def __init__(self, decl):
        self.decl = decl
        self.name = decl.name
        self.family = decl.family
        self.only_success = decl.only_success
        if decl.family in NEIGHBOURS:
            self.routine, prefix_elem = "", None
        else:
            self.routine, prefix_elem = routine_and_prefix_elem(decl.name, decl.family)
        ctx = Ctx(decl, self.routine)
        self.params = [(pname, typ) + classify(ctx, i, typ, pname)
                       for i, (typ, pname) in enumerate(decl.params)]
        roles = [p[2] for p in self.params]
        if decl.family in NEIGHBOURS:
            self.elem = neighbour_elem(decl.name, decl.family)
        elif not self.routine:
            # No matrix/vector operands (cublasLtMatmulAlgoGetIds has
            # Atype..Dtype arguments but no operands).
            self.elem = "None"
        elif self.routine in SET_GET.values():
            self.elem = "None"  # untyped bytes: the size is the elemSize argument
        elif "DataType" in roles or prefix_elem is None:
            # Given by cudaDataType arguments (…Ex, cublasLtMatmul: in the
            # layouts), or no ElemType enumerator fits (bf16, uint8).
            self.elem = "Dynamic"
        else:
            self.elem = prefix_elem
        self.returns_status = decl.ret in STATUS_TYPES
        self.is64 = decl.name.endswith("_64")
        self.strided = "StridedBatched" in decl.name
        self.batched = "Batched" in decl.name and not self.strided
        self.creates = creates_of(decl)
        self.destroys = destroys_of(decl)
        if self.routine in SET_GET.values():
            kind = "vector" if self.routine.endswith("vector") else "matrix"
            for i, want in enumerate(EXPECTED_SET_GET_NAMES[kind]):
                got = decl.params[i][1]
                if want is not None and got != want:
                    raise SystemExit("%s: parameter %d is %r, expected %r"
                                     % (decl.name, i, got, want))

    def signature(self):
        # An inline helper of the header has no symbol: its signature is not
        # a CUBLAS_SIGNATURE, from which the tracer makes interposers.
        macro = "CUBLAS_INLINE_SIGNATURE" if self.decl.inline else "CUBLAS_SIGNATURE"
        return "%s(%s, %s, (%s), (%s))" % (
            macro, self.name, self.decl.ret,
            ", ".join(declarator(typ, pname) for pname, typ, _r, _o in self.params),
            ", ".join(p[0] for p in self.params))

    def render(self):
        b = lambda v: "true" if v else "false"
        out = ['CUBLAS_FUNCTION(%s, "%s", %s, %s, %s, %s, %s, %s, %s, %s)' % (
            self.name, self.routine, self.family, self.elem,
            b(self.returns_status), b(self.is64), b(self.batched),
            b(self.strided), self.creates, self.destroys)]
        out.append("  " + self.signature())
        if self.only_success:
            out.append("  CUBLAS_ONLY_SUCCESS(%s)" % self.name)
        for pname, _typ, role, op in self.params:
            out.append("  CUBLAS_PARAM(%s, %s, %s)" % (pname, role, op))
        out.append("CUBLAS_END_FUNCTION(%s)" % self.name)
        return out


class Model:
    def __init__(self, include_dir):
        self.include_dir = include_dir
        self.rows = []
        self.out_of_scope = []  # (name, reason, header)
        self.decls_by_header = OrderedDict()
        self.cublas_version = {}
        self.attributes = []  # (accessor, enumerator, value, bytes)
        names = set()
        for header, family in HEADERS:
            path = os.path.join(include_dir, header)
            if not os.path.isfile(path):
                raise SystemExit("gen-api-model: %s not found (use --include DIR)" % path)
            decls, version, enums = parse_header(path, header, family)
            accessors = set()
            for d in decls:
                attr = [t for t, n in d.params if n == "attr"]
                if (d.inline or d.name in names or d.name in accessors or
                        not attr or attr[0] not in enums):
                    continue
                accessors.add(d.name)
                for enumerator, value, size in enums[attr[0]]:
                    self.attributes.append((d.name, enumerator, value, size))
            if header == "cublas_api.h":
                self.cublas_version = version
            self.decls_by_header[header] = decls
            real = [d for d in decls if not d.inline]
            real_names = {d.name for d in real}
            for d in real:
                if d.name in names:
                    continue  # a second #if branch: keep the first
                names.add(d.name)
                if d.name.endswith("Init_internal"):
                    self.out_of_scope.append((d.name, INIT_INTERNAL_REASON, header))
                else:
                    self.rows.append(Row(d))
            for d in decls:
                if not d.inline or d.name in real_names or d.name in names:
                    continue  # overload of a real function: same row
                names.add(d.name)
                if d.name in INIT_HELPERS:
                    self.rows.append(Row(d))
                    continue
                reason = INLINE_REASON.get(d.name, DEFAULT_INLINE_REASON)
                self.out_of_scope.append((d.name, reason, header))
        self.cuda_version = None
        cuda_h = os.path.join(include_dir, "cuda.h")
        if os.path.isfile(cuda_h):
            with open(cuda_h, encoding="utf-8", errors="replace") as f:
                m = re.search(r"#\s*define\s+CUDA_VERSION\s+(\d+)", f.read())
            if m:
                v = int(m.group(1))
                self.cuda_version = "%d.%d" % (v // 1000, (v % 1000) // 10)

    def version_string(self):
        v = self.cublas_version
        cublas = ".".join(v[k] for k in ("MAJOR", "MINOR", "PATCH", "BUILD") if k in v)
        if self.cuda_version and cublas:
            return "%s (cuBLAS %s)" % (self.cuda_version, cublas)
        if cublas:
            return "cuBLAS %s" % cublas
        return self.cuda_version or "unknown"

    def render(self):
        out = [
            "// Generated by scripts/gen-api-model.py from the CUDA %s headers. Do not edit."
            % self.version_string(),
            "// CUBLAS_FUNCTION(Name, Routine, Family, Elem, ReturnsStatus, Is64, "
            "Batched, StridedBatched, Creates, Destroys)",
            "// CUBLAS_SIGNATURE(Name, ReturnType, (ParameterDeclarations), (ParameterNames))",
            "// CUBLAS_INLINE_SIGNATURE(Name, ReturnType, (ParameterDeclarations), (ParameterNames))",
            "//   instead of CUBLAS_SIGNATURE for a static inline helper of the header",
            "//   (no symbol: nothing to link to or interpose)",
            "// CUBLAS_PARAM(Name, Role, Operand)",
            "// CUBLAS_END_FUNCTION(Name)",
            "// CUBLAS_OUT_OF_SCOPE(Name, Reason)",
            "// CUBLAS_ONLY_SUCCESS(Name)",
            "//   inside a function's rows: its doc comment lists CUBLAS_STATUS_SUCCESS",
            "//   as its only return value",
            "// CUBLAS_LT_ATTRIBUTE(Accessor, Enumerator, Value, Bytes)",
            "//   an attribute that the cuBLASLt accessor Accessor sets or gets, and",
            "//   the size of its storage as its doc comment names it",
        ]
        macros = [
            ("CUBLAS_FUNCTION", "Name, Routine, Family, Elem, ReturnsStatus, Is64, "
                                "Batched, StridedBatched, Creates, Destroys"),
            ("CUBLAS_SIGNATURE", "Name, ReturnType, ParameterDeclarations, ParameterNames"),
            ("CUBLAS_INLINE_SIGNATURE",
             "Name, ReturnType, ParameterDeclarations, ParameterNames"),
            ("CUBLAS_PARAM", "Name, Role, Operand"),
            ("CUBLAS_END_FUNCTION", "Name"),
            ("CUBLAS_OUT_OF_SCOPE", "Name, Reason"),
            ("CUBLAS_ONLY_SUCCESS", "Name"),
            ("CUBLAS_LT_ATTRIBUTE", "Accessor, Enumerator, Value, Bytes"),
        ]
        for macro, args in macros:
            out += ["#ifndef %s" % macro, "#define %s(%s)" % (macro, args), "#endif"]
        for row in self.rows:
            out += row.render()
        for name, reason, _header in self.out_of_scope:
            out.append('CUBLAS_OUT_OF_SCOPE(%s, "%s")' % (name, reason))
        for accessor, enumerator, value, size in self.attributes:
            out.append("CUBLAS_LT_ATTRIBUTE(%s, %s, %d, %d)"
                       % (accessor, enumerator, value, size))
        out += ["#undef %s" % macro for macro, _ in macros]
        return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Self test
# --------------------------------------------------------------------------

def _p(*items):
    """Spot-check helper: params given as 'name:Role:Operand' strings."""
    return [tuple(s.split(":")) for s in items]


SPOT_CHECKS = {
    # name: (routine, family, elem, flags(is64,batched,strided), creates,
    #        destroys, params or None to skip)
    "cublasSgemm_v2_64": ("gemm", "Classic", "F32", (True, False, False), "None", "None", _p(
        "handle:Resource:None", "transa:Operation:A", "transb:Operation:B",
        "m:DimM:None", "n:DimN:None", "k:DimK:None", "alpha:Scalar:Alpha",
        "A:DeviceMatrix:A", "lda:LeadingDim:A", "B:DeviceMatrix:B",
        "ldb:LeadingDim:B", "beta:Scalar:Beta", "C:DeviceMatrix:C",
        "ldc:LeadingDim:C")),
    "cublasDgemv_v2": ("gemv", "Classic", "F64", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "trans:Operation:A", "m:DimM:None",
        "n:DimN:None", "alpha:Scalar:Alpha", "A:DeviceMatrix:A",
        "lda:LeadingDim:A", "x:DeviceVector:X", "incx:Increment:X",
        "beta:Scalar:Beta", "y:DeviceVector:Y", "incy:Increment:Y")),
    "cublasCgbmv_v2": ("gbmv", "Classic", "C32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "trans:Operation:A", "m:DimM:None",
        "n:DimN:None", "kl:DimKL:None", "ku:DimKU:None", "alpha:Scalar:Alpha",
        "A:DeviceMatrix:A", "lda:LeadingDim:A", "x:DeviceVector:X",
        "incx:Increment:X", "beta:Scalar:Beta", "y:DeviceVector:Y",
        "incy:Increment:Y")),
    "cublasZtrsm_v2": ("trsm", "Classic", "C64", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "side:Side:None", "uplo:Fill:None",
        "trans:Operation:A", "diag:Diag:None", "m:DimM:None", "n:DimN:None",
        "alpha:Scalar:Alpha", "A:DeviceMatrix:A", "lda:LeadingDim:A",
        "B:DeviceMatrix:B", "ldb:LeadingDim:B")),
    "cublasSsymm_v2": ("symm", "Classic", "F32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "side:Side:None", "uplo:Fill:None",
        "m:DimM:None", "n:DimN:None", "alpha:Scalar:Alpha", "A:DeviceMatrix:A",
        "lda:LeadingDim:A", "B:DeviceMatrix:B", "ldb:LeadingDim:B",
        "beta:Scalar:Beta", "C:DeviceMatrix:C", "ldc:LeadingDim:C")),
    "cublasDsyrk_v2": ("syrk", "Classic", "F64", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "uplo:Fill:None", "trans:Operation:A",
        "n:DimN:None", "k:DimK:None", "alpha:Scalar:Alpha", "A:DeviceMatrix:A",
        "lda:LeadingDim:A", "beta:Scalar:Beta", "C:DeviceMatrix:C",
        "ldc:LeadingDim:C")),
    "cublasCherk_v2": ("herk", "Classic", "C32", (False, False, False), "None", "None", None),
    "cublasZherk_v2_64": ("herk", "Classic", "C64", (True, False, False), "None", "None", None),
    "cublasCdotc_v2": ("dotc", "Classic", "C32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "x:DeviceVector:X",
        "incx:Increment:X", "y:DeviceVector:Y", "incy:Increment:Y",
        "result:ScalarResult:Result")),
    "cublasSdot_v2": ("dot", "Classic", "F32", (False, False, False), "None", "None", None),
    "cublasScnrm2_v2": ("nrm2", "Classic", "C32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "x:DeviceVector:X",
        "incx:Increment:X", "result:ScalarResult:Result")),
    "cublasDznrm2_v2": ("nrm2", "Classic", "C64", (False, False, False), "None", "None", None),
    "cublasNrm2Ex": ("nrm2", "Classic", "Dynamic", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "x:DeviceVector:X",
        "xType:DataType:X", "incx:Increment:X", "result:ScalarResult:Result",
        "resultType:DataType:Result", "executionType:ComputeType:None")),
    "cublasIsamax_v2": ("amax", "Classic", "F32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "x:DeviceVector:X",
        "incx:Increment:X", "result:ScalarResult:Result")),
    "cublasIcamax_v2": ("amax", "Classic", "C32", (False, False, False), "None", "None", None),
    "cublasIzamin_v2_64": ("amin", "Classic", "C64", (True, False, False), "None", "None", None),
    "cublasIamaxEx": ("amax", "Classic", "Dynamic", (False, False, False), "None", "None", None),
    "cublasCsscal_v2": ("scal", "Classic", "C32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "alpha:Scalar:Alpha",
        "x:DeviceVector:X", "incx:Increment:X")),
    "cublasZdscal_v2": ("scal", "Classic", "C64", (False, False, False), "None", "None", None),
    "cublasScasum_v2": ("asum", "Classic", "C32", (False, False, False), "None", "None", None),
    "cublasDaxpy_v2": ("axpy", "Classic", "F64", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "alpha:Scalar:Alpha",
        "x:DeviceVector:X", "incx:Increment:X", "y:DeviceVector:Y",
        "incy:Increment:Y")),
    "cublasAxpyEx": ("axpy", "Classic", "Dynamic", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "alpha:Scalar:Alpha",
        "alphaType:DataType:Alpha", "x:DeviceVector:X", "xType:DataType:X",
        "incx:Increment:X", "y:DeviceVector:Y", "yType:DataType:Y",
        "incy:Increment:Y", "executiontype:ComputeType:None")),
    "cublasZdrot_v2": ("rot", "Classic", "C64", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "x:DeviceVector:X",
        "incx:Increment:X", "y:DeviceVector:Y", "incy:Increment:Y",
        "c:Scalar:None", "s:Scalar:None")),
    "cublasCsrot_v2": ("rot", "Classic", "C32", (False, False, False), "None", "None", None),
    "cublasSrotg_v2": ("rotg", "Classic", "F32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "a:ScalarResult:None", "b:ScalarResult:None",
        "c:ScalarResult:None", "s:ScalarResult:None")),
    "cublasDrotmg_v2": ("rotmg", "Classic", "F64", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "d1:ScalarResult:None", "d2:ScalarResult:None",
        "x1:ScalarResult:None", "y1:Scalar:None", "param:ScalarResult:None")),
    "cublasSrotm_v2": ("rotm", "Classic", "F32", (False, False, False), "None", "None", None),
    "cublasSetMatrix": ("setmatrix", "Classic", "None", (False, False, False), "None", "None", _p(
        "rows:DimM:None", "cols:DimN:None", "elemSize:ElemSize:None",
        "A:HostMatrix:A", "lda:LeadingDim:A", "B:DeviceMatrix:B",
        "ldb:LeadingDim:B")),
    "cublasGetMatrixAsync_64": ("getmatrix", "Classic", "None", (True, False, False), "None", "None", _p(
        "rows:DimM:None", "cols:DimN:None", "elemSize:ElemSize:None",
        "A:DeviceMatrix:A", "lda:LeadingDim:A", "B:HostMatrix:B",
        "ldb:LeadingDim:B", "stream:Stream:None")),
    "cublasSetVector": ("setvector", "Classic", "None", (False, False, False), "None", "None", _p(
        "n:DimN:None", "elemSize:ElemSize:None", "x:HostVector:X",
        "incx:Increment:X", "devicePtr:DeviceVector:Y", "incy:Increment:Y")),
    "cublasGetVectorAsync": ("getvector", "Classic", "None", (False, False, False), "None", "None", _p(
        "n:DimN:None", "elemSize:ElemSize:None", "devicePtr:DeviceVector:X",
        "incx:Increment:X", "hostPtr:HostVector:Y", "incy:Increment:Y",
        "stream:Stream:None")),
    "cublasSetVectorAsync": ("setvector", "Classic", "None", (False, False, False), "None", "None", _p(
        "n:DimN:None", "elemSize:ElemSize:None", "hostPtr:HostVector:X",
        "incx:Increment:X", "devicePtr:DeviceVector:Y", "incy:Increment:Y",
        "stream:Stream:None")),
    "cublasSgemmBatched": ("gemm", "Classic", "F32", (False, True, False), "None", "None", _p(
        "handle:Resource:None", "transa:Operation:A", "transb:Operation:B",
        "m:DimM:None", "n:DimN:None", "k:DimK:None", "alpha:Scalar:Alpha",
        "Aarray:DevicePointerArray:A", "lda:LeadingDim:A",
        "Barray:DevicePointerArray:B", "ldb:LeadingDim:B", "beta:Scalar:Beta",
        "Carray:DevicePointerArray:C", "ldc:LeadingDim:C",
        "batchCount:BatchCount:None")),
    "cublasSgemmStridedBatched": ("gemm", "Classic", "F32", (False, False, True), "None", "None", _p(
        "handle:Resource:None", "transa:Operation:A", "transb:Operation:B",
        "m:DimM:None", "n:DimN:None", "k:DimK:None", "alpha:Scalar:Alpha",
        "A:DeviceMatrix:A", "lda:LeadingDim:A", "strideA:BatchStride:A",
        "B:DeviceMatrix:B", "ldb:LeadingDim:B", "strideB:BatchStride:B",
        "beta:Scalar:Beta", "C:DeviceMatrix:C", "ldc:LeadingDim:C",
        "strideC:BatchStride:C", "batchCount:BatchCount:None")),
    "cublasSgemvStridedBatched": ("gemv", "Classic", "F32", (False, False, True), "None", "None", _p(
        "handle:Resource:None", "trans:Operation:A", "m:DimM:None",
        "n:DimN:None", "alpha:Scalar:Alpha", "A:DeviceMatrix:A",
        "lda:LeadingDim:A", "strideA:BatchStride:A", "x:DeviceVector:X",
        "incx:Increment:X", "stridex:BatchStride:X", "beta:Scalar:Beta",
        "y:DeviceVector:Y", "incy:Increment:Y", "stridey:BatchStride:Y",
        "batchCount:BatchCount:None")),
    "cublasHSHgemvBatched": ("gemv", "Classic", "F16", (False, True, False), "None", "None", None),
    "cublasHgemm": ("gemm", "Classic", "F16", (False, False, False), "None", "None", None),
    "cublasCgemm3m": ("gemm3m", "Classic", "C32", (False, False, False), "None", "None", None),
    "cublasCgemm3mEx": ("gemm3m", "Classic", "Dynamic", (False, False, False), "None", "None", None),
    "cublasSgemmEx": ("gemm", "Classic", "Dynamic", (False, False, False), "None", "None", None),
    "cublasGemmEx": ("gemm", "Classic", "Dynamic", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "transa:Operation:A", "transb:Operation:B",
        "m:DimM:None", "n:DimN:None", "k:DimK:None", "alpha:Scalar:Alpha",
        "A:DeviceMatrix:A", "Atype:DataType:A", "lda:LeadingDim:A",
        "B:DeviceMatrix:B", "Btype:DataType:B", "ldb:LeadingDim:B",
        "beta:Scalar:Beta", "C:DeviceMatrix:C", "Ctype:DataType:C",
        "ldc:LeadingDim:C", "computeType:ComputeType:None", "algo:Other:None")),
    "cublasGemmBatchedEx": ("gemm", "Classic", "Dynamic", (False, True, False), "None", "None", _p(
        "handle:Resource:None", "transa:Operation:A", "transb:Operation:B",
        "m:DimM:None", "n:DimN:None", "k:DimK:None", "alpha:Scalar:Alpha",
        "Aarray:DevicePointerArray:A", "Atype:DataType:A", "lda:LeadingDim:A",
        "Barray:DevicePointerArray:B", "Btype:DataType:B", "ldb:LeadingDim:B",
        "beta:Scalar:Beta", "Carray:DevicePointerArray:C", "Ctype:DataType:C",
        "ldc:LeadingDim:C", "batchCount:BatchCount:None",
        "computeType:ComputeType:None", "algo:Other:None")),
    "cublasGemmStridedBatchedEx_64": ("gemm", "Classic", "Dynamic", (True, False, True), "None", "None", None),
    "cublasGemmGroupedBatchedEx": ("gemmgrouped", "Classic", "Dynamic", (False, True, False), "None", "None", _p(
        "handle:Resource:None", "transa_array:HostArray:None",
        "transb_array:HostArray:None", "m_array:HostArray:None",
        "n_array:HostArray:None", "k_array:HostArray:None",
        "alpha_array:HostArray:None", "Aarray:DevicePointerArray:A",
        "Atype:DataType:A", "lda_array:HostArray:None",
        "Barray:DevicePointerArray:B", "Btype:DataType:B",
        "ldb_array:HostArray:None", "beta_array:HostArray:None",
        "Carray:DevicePointerArray:C", "Ctype:DataType:C",
        "ldc_array:HostArray:None", "group_count:Other:None",
        "group_size:HostArray:None", "computeType:ComputeType:None")),
    "cublasSgemmGroupedBatched_64": ("gemmgrouped", "Classic", "F32", (True, True, False), "None", "None", None),
    "cublasSgetrfBatched": ("getrf", "Classic", "F32", (False, True, False), "None", "None", _p(
        "handle:Resource:None", "n:DimN:None", "A:DevicePointerArray:A",
        "lda:LeadingDim:A", "P:DeviceVector:Pivot", "info:DeviceVector:Info",
        "batchSize:BatchCount:None")),
    "cublasDgetrsBatched": ("getrs", "Classic", "F64", (False, True, False), "None", "None", _p(
        "handle:Resource:None", "trans:Operation:A", "n:DimN:None",
        "nrhs:Other:None", "Aarray:DevicePointerArray:A", "lda:LeadingDim:A",
        "devIpiv:DeviceVector:Pivot", "Barray:DevicePointerArray:B",
        "ldb:LeadingDim:B", "info:HostArray:Info", "batchSize:BatchCount:None")),
    "cublasSgelsBatched": ("gels", "Classic", "F32", (False, True, False), "None", "None", _p(
        "handle:Resource:None", "trans:Operation:A", "m:DimM:None",
        "n:DimN:None", "nrhs:Other:None", "Aarray:DevicePointerArray:A",
        "lda:LeadingDim:A", "Carray:DevicePointerArray:C", "ldc:LeadingDim:C",
        "info:HostArray:Info", "devInfoArray:DeviceVector:Info",
        "batchSize:BatchCount:None")),
    "cublasCgeqrfBatched": ("geqrf", "Classic", "C32", (False, True, False), "None", "None", _p(
        "handle:Resource:None", "m:DimM:None", "n:DimN:None",
        "Aarray:DevicePointerArray:A", "lda:LeadingDim:A",
        "TauArray:DevicePointerArray:None", "info:HostArray:Info",
        "batchSize:BatchCount:None")),
    "cublasStpttr": ("tpttr", "Classic", "F32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "uplo:Fill:None", "n:DimN:None",
        "AP:DeviceMatrix:A", "A:DeviceMatrix:A", "lda:LeadingDim:A")),
    "cublasSdgmm": ("dgmm", "Classic", "F32", (False, False, False), "None", "None", None),
    "cublasZgeam": ("geam", "Classic", "C64", (False, False, False), "None", "None", None),
    "cublasLtMatmul": ("matmul", "Lt", "Dynamic", (False, False, False), "None", "None", _p(
        "lightHandle:Resource:None", "computeDesc:Resource:None",
        "alpha:Scalar:Alpha", "A:DeviceMatrix:A", "Adesc:Resource:A",
        "B:DeviceMatrix:B", "Bdesc:Resource:B", "beta:Scalar:Beta",
        "C:DeviceMatrix:C", "Cdesc:Resource:C", "D:DeviceMatrix:D",
        "Ddesc:Resource:D", "algo:Other:None", "workspace:DeviceWorkspace:None",
        "workspaceSizeInBytes:WorkspaceSize:None", "stream:Stream:None")),
    "cublasLtMatrixTransform": ("matrixtransform", "Lt", "Dynamic", (False, False, False), "None", "None", None),
    "cublasLtMatrixLayoutCreate": ("", "Lt", "None", (False, False, False), "LtMatrixLayout", "None", _p(
        "matLayout:ResourceOut:None", "type:Other:None", "rows:DimM:None",
        "cols:DimN:None", "ld:LeadingDim:None")),
    "cublasLtMatrixLayoutInit": ("", "Lt", "None", (False, False, False), "None", "None", _p(
        "matLayout:Resource:None", "type:Other:None", "rows:DimM:None",
        "cols:DimN:None", "ld:LeadingDim:None")),
    "cublasLtMatmulDescInit": ("", "Lt", "None", (False, False, False), "None", "None", _p(
        "matmulDesc:Resource:None", "computeType:ComputeType:None",
        "scaleType:Other:None")),
    "cublasLtMatmulPreferenceInit": ("", "Lt", "None", (False, False, False), "None", "None", _p(
        "pref:Resource:None")),
    "cublasXtSgemm": ("gemm", "Xt", "F32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "transa:Operation:A", "transb:Operation:B",
        "m:DimM:None", "n:DimN:None", "k:DimK:None", "alpha:HostScalar:Alpha",
        "A:AnyMemory:A", "lda:LeadingDim:A", "B:AnyMemory:B",
        "ldb:LeadingDim:B", "beta:HostScalar:Beta", "C:AnyMemory:C",
        "ldc:LeadingDim:C")),
    "cublasXtZspmm": ("spmm", "Xt", "C64", (False, False, False), "None", "None", None),
    "cublasCreate_v2": ("", "Classic", "None", (False, False, False), "Handle", "None", _p(
        "handle:ResourceOut:None")),
    "cublasDestroy_v2": ("", "Classic", "None", (False, False, False), "None", "Handle", _p(
        "handle:ResourceDestroyed:None")),
    "cublasSetStream_v2": ("", "Classic", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "streamId:Stream:None")),
    "cublasSetPointerMode_v2": ("", "Classic", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "mode:PointerMode:None")),
    "cublasGetPointerMode_v2": ("", "Classic", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "mode:Other:None")),
    "cublasSetWorkspace_v2": ("", "Classic", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "workspace:DeviceWorkspace:None",
        "workspaceSizeInBytes:WorkspaceSize:None")),
    "cublasLtCreate": ("", "Lt", "None", (False, False, False), "LtHandle", "None", _p(
        "lightHandle:ResourceOut:None")),
    "cublasLtDestroy": ("", "Lt", "None", (False, False, False), "None", "LtHandle", _p(
        "lightHandle:ResourceDestroyed:None")),
    "cublasXtCreate": ("", "Xt", "None", (False, False, False), "XtHandle", "None", None),
    "cublasXtDestroy": ("", "Xt", "None", (False, False, False), "None", "XtHandle", None),
    "cublasLtMatmulDescCreate": ("", "Lt", "None", (False, False, False), "LtMatmulDesc", "None", None),
    "cublasLtMatmulDescDestroy": ("", "Lt", "None", (False, False, False), "None", "LtMatmulDesc", None),
    "cublasLtMatrixLayoutDestroy": ("", "Lt", "None", (False, False, False), "None", "LtMatrixLayout", None),
    "cublasLtMatmulPreferenceCreate": ("", "Lt", "None", (False, False, False), "LtMatmulPreference", "None", None),
    "cublasLtMatmulPreferenceDestroy": ("", "Lt", "None", (False, False, False), "None", "LtMatmulPreference", None),
    "cublasLtMatrixTransformDescCreate": ("", "Lt", "None", (False, False, False), "LtMatrixTransformDesc", "None", None),
    "cublasLtMatrixTransformDescDestroy": ("", "Lt", "None", (False, False, False), "None", "LtMatrixTransformDesc", None),
    "cublasLtEmulationDescCreate": ("", "Lt", "None", (False, False, False), "LtEmulationDesc", "None", None),
    "cublasLtEmulationDescDestroy": ("", "Lt", "None", (False, False, False), "None", "LtEmulationDesc", None),
    # cuSOLVER: handles, the legacy API (workspace in elements of the
    # routine's type) and the 64-bit API (in bytes).
    "cusolverDnCreate": ("", "SolverDn", "None", (False, False, False), "SolverDnHandle", "None", _p(
        "handle:ResourceOut:None")),
    "cusolverDnDestroy": ("", "SolverDn", "None", (False, False, False), "None", "SolverDnHandle", _p(
        "handle:ResourceDestroyed:None")),
    "cusolverDnSetStream": ("", "SolverDn", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "streamId:Stream:None")),
    "cusolverDnCreateParams": ("", "SolverDn", "None", (False, False, False), "SolverDnParams", "None", None),
    "cusolverDnDestroySyevjInfo": ("", "SolverDn", "None", (False, False, False), "None", "SolverSyevjInfo", None),
    "cusolverDnSgetrf_bufferSize": ("", "SolverDn", "F32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "m:Other:None", "n:Other:None", "A:Other:None",
        "lda:Other:None", "Lwork:WorkspaceElementsOut:None")),
    "cusolverDnSgetrf": ("", "SolverDn", "F32", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "m:Other:None", "n:Other:None", "A:Other:None",
        "lda:Other:None", "Workspace:DeviceWorkspace:None",
        "devIpiv:DeviceVector:Pivot", "devInfo:DeviceVector:Info")),
    "cusolverDnZgesvd": ("", "SolverDn", "C64", (False, False, False), "None", "None", None),
    "cusolverDnDpotrf": ("", "SolverDn", "F64", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "uplo:Other:None", "n:Other:None", "A:Other:None",
        "lda:Other:None", "Workspace:DeviceWorkspace:None",
        "Lwork:WorkspaceElements:None", "devInfo:DeviceVector:Info")),
    "cusolverDnXgetrf_bufferSize": ("", "SolverDn", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "params:Resource:None", "m:Other:None",
        "n:Other:None", "dataTypeA:Other:None", "A:Other:None", "lda:Other:None",
        "computeType:Other:None", "workspaceInBytesOnDevice:WorkspaceSizeOut:None",
        "workspaceInBytesOnHost:HostWorkspaceSizeOut:None")),
    "cusolverDnXgetrf": ("", "SolverDn", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "params:Resource:None", "m:Other:None",
        "n:Other:None", "dataTypeA:Other:None", "A:Other:None", "lda:Other:None",
        "ipiv:DeviceVector:Pivot", "computeType:Other:None",
        "bufferOnDevice:DeviceWorkspace:None",
        "workspaceInBytesOnDevice:WorkspaceSize:None",
        "bufferOnHost:Other:None", "workspaceInBytesOnHost:Other:None",
        "info:DeviceVector:Info")),
    # cuSPARSE: handles, the generic API's descriptors (a const descriptor
    # is the same kind) and its buffers, in bytes.
    "cusparseCreate": ("", "Sparse", "None", (False, False, False), "SparseHandle", "None", _p(
        "handle:ResourceOut:None")),
    "cusparseDestroy": ("", "Sparse", "None", (False, False, False), "None", "SparseHandle", None),
    "cusparseCreateCsr": ("", "Sparse", "None", (False, False, False), "SparseSpMat", "None", _p(
        "spMatDescr:ResourceOut:None", "rows:Other:None", "cols:Other:None",
        "nnz:Other:None", "csrRowOffsets:DeviceVector:None",
        "csrColInd:DeviceVector:None", "csrValues:DeviceVector:None",
        "csrRowOffsetsType:Other:None", "csrColIndType:Other:None",
        "idxBase:Other:None", "valueType:Other:None")),
    "cusparseDnVecSetValues": ("", "Sparse", "None", (False, False, False), "None", "None", _p(
        "dnVecDescr:Resource:None", "values:DeviceVector:None")),
    "cusparseDnVecGetValues": ("", "Sparse", "None", (False, False, False), "None", "None", _p(
        "dnVecDescr:Resource:None", "values:Other:None")),
    "cusparseCreateConstCoo": ("", "Sparse", "None", (False, False, False), "SparseSpMat", "None", None),
    "cusparseDestroySpMat": ("", "Sparse", "None", (False, False, False), "None", "SparseSpMat", _p(
        "spMatDescr:ResourceDestroyed:None")),
    "cusparseCreateDnVec": ("", "Sparse", "None", (False, False, False), "SparseDnVec", "None", None),
    "cusparseDestroyDnMat": ("", "Sparse", "None", (False, False, False), "None", "SparseDnMat", None),
    "cusparseSpGEMM_createDescr": ("", "Sparse", "None", (False, False, False), "SparseSpGEMM", "None", None),
    "cusparseCreateIdentityPermutation": ("", "Sparse", "None", (False, False, False), "None", "None", None),
    "cusparseSpMV_bufferSize": ("", "Sparse", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "opA:Other:None", "alpha:Other:None",
        "matA:Resource:None", "vecX:Resource:None", "beta:Other:None",
        "vecY:Resource:None", "computeType:Other:None", "alg:Other:None",
        "bufferSize:WorkspaceSizeOut:None")),
    # SpGEMM's steps size their own buffers: the size is written with a
    # null buffer and read with one.
    "cusparseSpGEMM_compute": ("", "Sparse", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "opA:Other:None", "opB:Other:None",
        "alpha:Scalar:None", "matA:Resource:None", "matB:Resource:None",
        "beta:Scalar:None", "matC:Resource:None", "computeType:Other:None",
        "alg:Other:None", "spgemmDescr:Resource:None",
        "bufferSize2:WorkspaceSizeInOut:None",
        "externalBuffer2:DeviceWorkspace:None")),
    "cusparseSpMV": ("", "Sparse", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "opA:Other:None", "alpha:Scalar:None",
        "matA:Resource:None", "vecX:Resource:None", "beta:Scalar:None",
        "vecY:Resource:None", "computeType:Other:None", "alg:Other:None",
        "externalBuffer:DeviceWorkspace:None")),
    "cusparseSetPointerMode": ("", "Sparse", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "mode:PointerMode:None")),
    "cusparseGetPointerMode": ("", "Sparse", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "mode:Other:None")),
    "cusparseSpVV": ("", "Sparse", "None", (False, False, False), "None", "None", _p(
        "handle:Resource:None", "opX:Other:None", "vecX:Resource:None",
        "vecY:Resource:None", "result:ScalarResult:None",
        "computeType:Other:None", "externalBuffer:DeviceWorkspace:None")),
}

SPOT_SIGNATURES = {
    "cublasSgemm_v2": "CUBLAS_SIGNATURE(cublasSgemm_v2, cublasStatus_t, "
    "(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, "
    "int m, int n, int k, const float* alpha, const float* A, int lda, "
    "const float* B, int ldb, const float* beta, float* C, int ldc), "
    "(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc))",
    "cublasSgemmBatched_64": "CUBLAS_SIGNATURE(cublasSgemmBatched_64, cublasStatus_t, "
    "(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, "
    "int64_t m, int64_t n, int64_t k, const float* alpha, const float* const Aarray[], "
    "int64_t lda, const float* const Barray[], int64_t ldb, const float* beta, "
    "float* const Carray[], int64_t ldc, int64_t batchCount), "
    "(handle, transa, transb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, "
    "Carray, ldc, batchCount))",
    "cublasCreate_v2": "CUBLAS_SIGNATURE(cublasCreate_v2, cublasStatus_t, "
    "(cublasHandle_t* handle), (handle))",
    "cublasGetCudartVersion": "CUBLAS_SIGNATURE(cublasGetCudartVersion, size_t, (), ())",
    "cublasLtMatmulPreferenceInit": "CUBLAS_INLINE_SIGNATURE(cublasLtMatmulPreferenceInit, "
    "cublasStatus_t, (cublasLtMatmulPreference_t pref), (pref))",
}

ENUMS_FROM_HEADER = ("ApiFamily", "ElemType", "ResourceKind", "ParamRole", "Operand")


def enums_from_cublasapi_h(path):
    """Enumerators of lib/model/CublasApi.h, to validate every emitted token."""
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    enums = {}
    for name in ENUMS_FROM_HEADER:
        m = re.search(r"enum\s+class\s+%s\b[^{]*\{([^}]*)\}" % name, text)
        if not m:
            return None
        enums[name] = {e.strip().split("=")[0].strip()
                       for e in m.group(1).split(",") if e.strip()}
    return enums


def self_test(model, repo_root):
    failures = []
    fail = failures.append
    rows = {r.name: r for r in model.rows}
    oos = {n for n, _r, _h in model.out_of_scope}

    # 1. Every declared function has exactly one row or out-of-scope entry.
    names = [r.name for r in model.rows] + [n for n, _r, _h in model.out_of_scope]
    dups = [n for n, c in Counter(names).items() if c > 1]
    if dups:
        fail("duplicate rows: %s" % dups)
    print("== Declarations per header", file=sys.stderr)
    for header, decls in model.decls_by_header.items():
        real = [d for d in decls if not d.inline]
        inline = [d for d in decls if d.inline]
        distinct = list(OrderedDict.fromkeys(d.name for d in real))
        modelled = sum(1 for n in distinct if n in rows)
        out = sum(1 for n in distinct if n in oos)
        inline_oos = sorted({d.name for d in inline if d.name in oos})
        merged = sorted({d.name for d in inline if d.name in distinct})
        inline_rows = sorted({d.name for d in inline
                              if d.name in rows and rows[d.name].decl.inline})
        print("  %-13s declarations: %d (distinct %d): %d modelled, "
              "%d out of scope; static inline: %d (%d merged with a real function, "
              "%d modelled as inline rows, %d out of scope: %s)"
              % (header, len(real), len(distinct), modelled, out, len(inline),
                 len(merged), len(inline_rows), len(inline_oos),
                 ", ".join(inline_oos) or "-"),
              file=sys.stderr)
        for d in decls:
            if d.name not in rows and d.name not in oos:
                fail("%s: %s has no row" % (header, d.name))
        for d in real:
            if d.name in rows and rows[d.name].decl is not d and \
                    [p[1] for p in d.params] != [p[0] for p in rows[d.name].params]:
                fail("%s: #if variants with different parameter names" % d.name)
    expected = {"cublas_api.h": 539, "cublasLt.h": 50, "cublasXt.h": 51}
    for header, n in expected.items():
        got = sum(1 for d in model.decls_by_header[header] if not d.inline)
        if got != n:
            print("  note: %s has %d declarations (CUDA 13.0 has %d)"
                  % (header, got, n), file=sys.stderr)

    # 2. Rows per header and family, and other aggregate facts.
    print("== Rows per family", file=sys.stderr)
    for fam, c in Counter(r.family for r in model.rows).items():
        blas = sum(1 for r in model.rows if r.family == fam and r.routine)
        print("  %-8s %4d rows (%d with a routine)" % (fam, c, blas), file=sys.stderr)
    print("  out of scope: %d" % len(model.out_of_scope), file=sys.stderr)
    print("== Rows per Elem", file=sys.stderr)
    print("  " + ", ".join("%s=%d" % kv for kv in
                           sorted(Counter(r.elem for r in model.rows).items())),
          file=sys.stderr)
    nonstatus = ["%s (%s)" % (r.name, r.decl.ret) for r in model.rows
                 if not r.returns_status]
    print("== Rows not returning cublasStatus_t: %s" % ", ".join(nonstatus),
          file=sys.stderr)

    # 3. Enumerators exist in lib/model/CublasApi.h.
    enums = enums_from_cublasapi_h(os.path.join(repo_root, "lib", "model", "CublasApi.h"))
    if enums is None:
        print("  note: lib/model/CublasApi.h not found or not parsable; enum check skipped",
              file=sys.stderr)
    else:
        for r in model.rows:
            if r.family not in enums["ApiFamily"]:
                fail("%s: family %s" % (r.name, r.family))
            if r.elem not in enums["ElemType"]:
                fail("%s: elem %s" % (r.name, r.elem))
            for kind in (r.creates, r.destroys):
                if kind not in enums["ResourceKind"]:
                    fail("%s: resource kind %s" % (r.name, kind))
            for pname, _t, role, op in r.params:
                if role not in enums["ParamRole"]:
                    fail("%s(%s): role %s" % (r.name, pname, role))
                if op not in enums["Operand"]:
                    fail("%s(%s): operand %s" % (r.name, pname, op))

    # 4. Structural invariants.
    for r in model.rows:
        pnames = [p[0] for p in r.params]
        if len(set(pnames)) != len(pnames):
            fail("%s: duplicate parameter names" % r.name)
        if r.decl.params and [p[1] for p in r.decl.params] != pnames:
            fail("%s: parameter names differ from the declaration" % r.name)
        if r.is64 != r.name.endswith("_64"):
            fail("%s: Is64" % r.name)
        roles = Counter((p[2], p[3]) for p in r.params
                        if p[2] not in ("Other", "HostArray") and p[3] != "None")
        for (role, op), c in roles.items():
            if c > 1 and not (r.routine == "tpttr" or r.routine == "trttp"):
                fail("%s: %d parameters with role %s/%s" % (r.name, c, role, op))
        if (r.creates != "None") != any(p[2] == "ResourceOut" for p in r.params):
            fail("%s: Creates/ResourceOut mismatch" % r.name)
        if (r.destroys != "None") != any(p[2] == "ResourceDestroyed" for p in r.params):
            fail("%s: Destroys/ResourceDestroyed mismatch" % r.name)
        if r.routine and r.family != "Lt" and r.routine not in SET_GET.values() \
                and r.elem == "None":
            fail("%s: BLAS routine without Elem" % r.name)
        if r.elem == "None" and any(p[2] in ("DeviceMatrix", "DeviceVector",
                                             "DevicePointerArray", "AnyMemory")
                                    for p in r.params) \
                and r.routine not in SET_GET.values() \
                and r.family not in NEIGHBOURS:
            # A neighbour's only operands are cuSOLVER's devInfo and pivots
            # (int), which no Elem describes.
            fail("%s: operands but Elem None" % r.name)

    # 5. Spot checks.
    checked = 0
    for name, (routine, fam, elem, flags, creates, destroys, params) in SPOT_CHECKS.items():
        r = rows.get(name)
        if r is None:
            fail("spot check: no row for %s" % name)
            continue
        checked += 1
        got = (r.routine, r.family, r.elem, (r.is64, r.batched, r.strided),
               r.creates, r.destroys)
        want = (routine, fam, elem, flags, creates, destroys)
        if got != want:
            fail("spot check %s: got %r, want %r" % (name, got, want))
        if params is not None:
            gp = [(p[0], p[2], p[3]) for p in r.params]
            if gp != params:
                fail("spot check %s params:\n    got  %r\n    want %r" % (name, gp, params))
    for name in ("cublasMigrateComputeType", "cublasLtMatmulDescInit_internal",
                 "cublasLtMatrixLayoutInit_internal"):
        if name not in oos:
            fail("%s should be out of scope" % name)
    for name in ("cublasGemmEx", "cublasGemmBatchedEx", "cublasGemmStridedBatchedEx",
                 "cublasSetEmulationStrategy", "cublasGetEmulationStrategy"):
        if name in rows and rows[name].decl.inline:
            fail("%s: the inline overload won over the CUBLASWINAPI declaration" % name)
    # The inline Init helpers: rows marked inline, the descriptor first (a
    # Resource), the Init_internal they call out of scope; no other row is
    # inline.
    for r in model.rows:
        if r.decl.inline != (r.name in INIT_HELPERS):
            fail("%s: inline %s, but %s INIT_HELPERS" % (
                r.name, r.decl.inline, "in" if r.name in INIT_HELPERS else "not in"))
    for name, kind in INIT_HELPERS.items():
        r = rows.get(name)
        if r is None:
            print("  note: no inline helper %s in these headers" % name, file=sys.stderr)
            continue
        if not r.params or r.params[0][2] != "Resource" or \
                RESOURCE_TYPES.get(base_type(r.params[0][1])[0]) != kind:
            fail("%s: the first parameter is not a %s Resource" % (name, kind))
        if r.creates != "None" or r.destroys != "None":
            fail("%s: an Init helper creates or destroys nothing" % name)
        if not r.signature().startswith("CUBLAS_INLINE_SIGNATURE("):
            fail("%s: an inline helper needs CUBLAS_INLINE_SIGNATURE" % name)
        if name + "_internal" not in oos:
            fail("%s_internal should be out of scope" % name)
    for r in model.rows:
        if not r.decl.inline and not r.signature().startswith("CUBLAS_SIGNATURE("):
            fail("%s: a real function needs CUBLAS_SIGNATURE" % r.name)
    print("== Spot checks: %d rows checked" % checked, file=sys.stderr)

    # 6. Signatures: the declarations parse back to the same types and names,
    # and a few are spelled out.
    for r in model.rows:
        decls = ", ".join(declarator(typ, pname) for pname, typ, _r, _o in r.params)
        back = parse_params(decls)
        if back != [(typ, pname) for pname, typ, _r, _o in r.params]:
            fail("%s: signature does not parse back: %s" % (r.name, decls))
    for name, want in SPOT_SIGNATURES.items():
        if name not in rows:
            fail("signature spot check: no row for %s" % name)
        elif rows[name].signature() != want:
            fail("signature spot check %s:\n    got  %s\n    want %s"
                 % (name, rows[name].signature(), want))
    print("== Signatures: %d rows parse back, %d spelled out"
          % (len(model.rows), len(SPOT_SIGNATURES)), file=sys.stderr)

    # 7. What stayed unclassified (in cuBLAS: the neighbours classify only
    # what their rules read, see classify_neighbour).
    role_names = Counter()
    other_names = Counter()
    for r in model.rows:
        if r.family in NEIGHBOURS:
            continue
        for pname, _t, role, _op in r.params:
            if role == "Other":
                other_names[pname] += 1
            else:
                role_names[pname] += 1
    print("== Parameters left Other that carry a role elsewhere (name: Other/with role)",
          file=sys.stderr)
    for pname in sorted(n for n in other_names if n in role_names):
        print("  %-22s %3d / %3d  in %s" % (
            pname, other_names[pname], role_names[pname],
            ", ".join(sorted({r.name for r in model.rows for p in r.params
                              if p[0] == pname and p[2] == "Other"}))[:160]),
              file=sys.stderr)
    blas_other = OrderedDict()
    for r in model.rows:
        if not r.routine:
            continue
        for pname, typ, role, _op in r.params:
            if role == "Other":
                blas_other.setdefault(pname, []).append(r.name)
    print("== Parameter names left Other on BLAS routines (rows with a Routine)",
          file=sys.stderr)
    for pname, fns in blas_other.items():
        print("  %-22s %3d rows, e.g. %s" % (pname, len(fns), ", ".join(fns[:3])),
              file=sys.stderr)

    if failures:
        print("== SELF-TEST FAILED (%d)" % len(failures), file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    print("== Self-test passed", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------

def default_include():
    cuda = os.environ.get("CUDA_PATH")
    if cuda and os.path.isfile(os.path.join(cuda, "include", "cublas_api.h")):
        return os.path.join(cuda, "include")
    return "/usr/local/cuda/include"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include", metavar="DIR", default=None,
                    help="directory holding cublas_api.h, cublasLt.h, cublasXt.h "
                         "(default: $CUDA_PATH/include or /usr/local/cuda/include)")
    ap.add_argument("-o", metavar="FILE", dest="output", default=None,
                    help="write the table to FILE (default: stdout)")
    ap.add_argument("--check", metavar="FILE", default=None,
                    help="exit 1 with a unified diff when FILE differs from the "
                         "generated table")
    ap.add_argument("--self-test", action="store_true",
                    help="print a summary and run consistency and spot checks")
    args = ap.parse_args(argv)

    model = Model(args.include or default_include())
    text = model.render()
    status = 0
    if args.self_test:
        repo_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        status = self_test(model, repo_root)
    if args.check:
        try:
            with open(args.check, encoding="utf-8", newline="") as f:
                current = f.read()
        except OSError as e:
            print("gen-api-model: cannot read %s: %s" % (args.check, e), file=sys.stderr)
            return 1
        if current != text:
            sys.stdout.writelines(difflib.unified_diff(
                current.splitlines(True), text.splitlines(True),
                fromfile=args.check, tofile="generated"))
            print("gen-api-model: %s is out of date; regenerate it with "
                  "scripts/gen-api-model.py -o %s" % (args.check, args.check),
                  file=sys.stderr)
            return 1
        return status
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    elif not args.self_test:
        sys.stdout.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
