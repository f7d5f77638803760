# lit configuration for the cublas-tidy tests: the checks' (test/checks/)
# and the front ends' (test/frontends/), one suite each.
import os
import sys

import lit.formats

sys.path.insert(0, os.path.join(config.cublas_tidy_src_root, "test"))

config.name = "cublas-tidy" if config.suite_dir == "checks" else "cublas-tidy-" + config.suite_dir
config.excludes = []
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".cu", ".c", ".test"]
config.test_source_root = os.path.join(config.cublas_tidy_src_root, "test",
                                       config.suite_dir)
config.test_exec_root = os.path.join(config.cublas_tidy_obj_root, "test",
                                     config.suite_dir)

# Real CUDA headers when present; the hand-written minimal set otherwise.
cuda_include = os.path.join(config.cuda_root, "include") if config.cuda_root else ""
if cuda_include and os.path.exists(os.path.join(cuda_include, "cublas_v2.h")):
    lit_config.note("using the real CUDA headers in " + cuda_include)
    config.available_features.add("real-cuda-headers")
    cuda_path = config.cuda_root
else:
    cuda_include = os.path.join(config.cublas_tidy_src_root, "test",
                                "fallback-include")
    lit_config.note("CUDA headers not found: using the minimal header set in "
                    + cuda_include)
    cuda_path = ""

# A folder outside the source and build trees, for the tests of what the
# driver does when no compile database lies above a file: under the build
# tree it would find the build's own compile_commands.json (configured with
# -DCMAKE_EXPORT_COMPILE_COMMANDS=ON) and analyse the project.
import atexit
import shutil
import tempfile
outside_trees = tempfile.mkdtemp(prefix="cublas-tidy-lit-")
atexit.register(shutil.rmtree, outside_trees, True)
config.substitutions.append(("%outside_trees", outside_trees))

python = config.python_executable
runner = os.path.join(config.cublas_tidy_src_root, "test", "check_clang_tidy.py")
frontends = []
have_plugin = bool(config.clang_tidy and os.path.exists(config.clang_tidy)
                   and config.plugin and os.path.exists(config.plugin))
if have_plugin:
    frontends += ["--clang-tidy", config.clang_tidy, "--plugin", config.plugin]
else:
    lit_config.note("no plugin or no clang-tidy-22: testing the standalone driver only")
if config.cublas_tidy:
    frontends += ["--cublas-tidy", config.cublas_tidy]
else:
    # A plugin built for an older clang-tidy: the driver's own tests (those
    # that run %cublas_tidy) belong to the LLVM 22 build.
    if not have_plugin:
        lit_config.fatal("neither the plugin with its clang-tidy nor cublas-tidy is built")
    lit_config.note("plugin only, in " + config.clang_tidy)
    checks_dir = config.test_source_root
    for name in sorted(os.listdir(checks_dir)):
        path = os.path.join(checks_dir, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                if "%cublas_tidy" in f.read():
                    config.excludes.append(name)
    # Whether this clang parses the CUDA headers in CUDA mode: clang 19's
    # CUDA wrapper headers include files that CUDA 13 no longer ships
    # (texture_fetch_functions.h), so a .cu file does not compile there.
    # C and C++ files are unaffected.
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.cu")
        with open(probe, "w") as f:
            f.write("#include <cublas_v2.h>\n")
        cuda_args = ["--cuda-host-only", "-Wno-unknown-cuda-version"]
        cuda_args += ["--cuda-path=" + cuda_path] if cuda_path else ["-nocudainc", "-nocudalib"]
        ok = subprocess.run([config.clang_tidy, "--checks=-*,cublas-*", "--load=" + config.plugin,
                             probe, "--", "-isystem", cuda_include] + cuda_args,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT).returncode == 0
    if not ok:
        lit_config.note("%s cannot compile CUDA files against %s: the .cu tests are left out"
                        % (config.clang_tidy, cuda_include))
        config.excludes += [n for n in os.listdir(checks_dir) if n.endswith(".cu")]

# scripts/test runs the checks' tests through the plugin alone in build/
# when its sanitizer stage runs them through the standalone driver
# (CUBLAS_TIDY_LIT_FRONTENDS=plugin): each front end once per test.
if (os.environ.get("CUBLAS_TIDY_LIT_FRONTENDS") == "plugin" and have_plugin
        and config.cublas_tidy):
    lit_config.note("the checks' tests through the plugin only "
                    "(CUBLAS_TIDY_LIT_FRONTENDS=plugin)")
    frontends = frontends[:frontends.index("--cublas-tidy")]
# The checks' tests read their C++ files' leading #include lines from a
# precompiled header (test/pch.py) made by the clang of the front ends'
# LLVM, once per machine, set of lines and flags.
import pch
pch_clang = os.path.join(getattr(config, "llvm_tools_dir", "") or
                         os.path.dirname(config.clang_tidy or ""), "clang++")
pch_dir = pch.cache_dir(config.cublas_tidy_obj_root)
pch_args = ["--pch-clang", pch_clang, "--pch-dir", pch_dir] \
    if os.path.exists(pch_clang) else []
config.substitutions.append((
    "%check_clang_tidy",
    " ".join([python, runner] + frontends + pch_args + [
        "--filecheck", config.filecheck, "--cuda-include", cuda_include,
        "--cuda-path", cuda_path or "''"])))
if config.cublas_tidy:
    config.substitutions.append(("%cublas_tidy", config.cublas_tidy))
config.substitutions.append(("%python", python))
if have_plugin:
    config.available_features.add("clang-tidy-plugin-host")
    config.substitutions.append(
        ("%clang_tidy_plugin",
         "%s --load=%s" % (config.clang_tidy, config.plugin)))
config.substitutions.append(("%cuda_include", cuda_include))
if os.path.exists(pch_clang):
    config.available_features.add("clangxx")
    config.substitutions.append(("%clangxx", pch_clang))

# PyTorch's C++ headers (Debian's libtorch-dev, a CPU build, with pybind11
# and Python's headers): the tests of C++/CUDA extensions (REQUIRES: torch).
import sysconfig
torch_root = "/usr/include"
python_include = sysconfig.get_paths().get("include", "")
if (os.path.exists(os.path.join(torch_root, "torch", "extension.h"))
        and os.path.exists(os.path.join(torch_root, "pybind11", "pybind11.h"))
        and os.path.exists(os.path.join(python_include, "Python.h"))):
    config.available_features.add("torch")
    torch_flags = [
        "-isystem", os.path.join(config.cublas_tidy_src_root, "test", "torch-include"),
        "-isystem", os.path.join(torch_root, "torch", "csrc", "api", "include"),
        "-isystem", python_include,
        "-DTORCH_EXTENSION_NAME=cublas_tidy_test"]
    # The checks' tests parse torch/extension.h (13 s a parse, two front
    # ends each) from a precompiled header (test/pch.py); the front ends'
    # own tests (test/frontends/) parse it as text, as users' runs do.
    if config.suite_dir == "checks":
        torch_pch = pch.build(pch_clang, ["#include <torch/extension.h>"],
                              ["-isystem", cuda_include, "-std=c++17"] + torch_flags,
                              pch_dir, "torch")
        if torch_pch:
            torch_flags += ["-include-pch", torch_pch]
        else:
            lit_config.note("no precompiled PyTorch header: the tests parse torch/extension.h")
    config.substitutions.append(("%torch_flags", " ".join(torch_flags)))
else:
    lit_config.note("no PyTorch headers (libtorch-dev, pybind11-dev, python3-dev): "
                    "the extension tests are unsupported")
config.substitutions.append(("%FileCheck", config.filecheck))
config.environment["CUDA_PATH"] = cuda_path

# nvcc, for the tests that make a real compile database with CMake.
nvcc = os.path.join(config.cuda_root, "bin", "nvcc") if config.cuda_root else ""
if nvcc and os.access(nvcc, os.X_OK):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
for var in ("PATH", "HOME", "TMPDIR", "ASAN_OPTIONS", "UBSAN_OPTIONS",
            "CUBLAS_TIDY_LIT_NO_PCH", "CUBLAS_TIDY_PCH_CACHE", "XDG_CACHE_HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.excludes.append('Inputs')
