#!/usr/bin/env python3
"""Tests of scripts/check-layers: on small trees that break one rule each,
and on the project itself.

    layers_test.py [PROJECT_ROOT]
"""
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
_loader = importlib.machinery.SourceFileLoader(
    "check_layers", os.path.join(ROOT, "scripts", "check-layers"))
_spec = importlib.util.spec_from_loader("check_layers", _loader)
layers = importlib.util.module_from_spec(_spec)
_loader.exec_module(layers)

READMES = {
    "lib/model": "May include: model, llvm",
    "lib/ast": "May include: ast, model, clang, llvm",
    "lib/facts": "May include: facts, ast, model, clang, llvm",
    "checks": "May include: checks, facts, ast, model, clang, clang-tidy, llvm",
    "tools": "May include: *",
    "integration/tracer": "May include: tracer, model, llvm",
}


class Tree:
    """A small project with one file per layer that follows the rules."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="layers-")
        for folder, line in READMES.items():
            self.write(f"{folder}/README.md", f"# {folder}\n\n{line}\n")
        self.write("lib/model/Api.h", '#include "llvm/ADT/StringRef.h"\n')
        self.write("lib/model/Api.cpp", '#include "model/Api.h"\n#include <vector>\n')
        self.write("lib/ast/Utils.h", '#include "model/Api.h"\n#include "clang/AST/Expr.h"\n')
        self.write("lib/facts/Facts.h", '#include "ast/Utils.h"\n#include "facts/Other.h"\n')
        self.write("lib/facts/Other.h", "\n")
        self.write("checks/Check.h", '#include "ClangTidyCheck.h"\n#include "facts/Facts.h"\n')
        self.write("checks/Check.cpp", '#include "Check.h"\n')
        self.write("tools/cublas-tidy/Driver.cpp", '#include "Check.h"\n#include "Version.h"\n')
        self.write("integration/tracer/Trace.cpp", '#include "model/Api.h"\n')
        self.write("integration/tracer/test/T.cpp", '#include "facts/Facts.h"\n')

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def problems(self):
        return layers.check(self.root)

    def close(self):
        shutil.rmtree(self.root)


class CheckLayersTest(unittest.TestCase):
    def setUp(self):
        self.tree = Tree()

    def tearDown(self):
        self.tree.close()

    def assertOneProblem(self, *words):
        problems = self.tree.problems()
        self.assertEqual(len(problems), 1, problems)
        for w in words:
            self.assertIn(w, problems[0])

    def test_a_tree_that_follows_the_rules_passes(self):
        self.assertEqual(self.tree.problems(), [])

    def test_the_model_may_not_include_clang(self):
        self.tree.write("lib/model/Api.cpp", '#include "clang/AST/Decl.h"\n')
        self.assertOneProblem("lib/model/Api.cpp:1", "clang/AST/Decl.h", "(clang)")

    def test_angle_brackets_count_too(self):
        self.tree.write("lib/model/Api.cpp", "#include <clang/AST/Decl.h>\n")
        self.assertOneProblem("lib/model/Api.cpp:1", "(clang)")

    def test_an_include_may_not_point_up(self):
        self.tree.write("lib/ast/Utils.h", '#include "facts/Facts.h"\n')
        self.assertOneProblem("lib/ast/Utils.h:1", "ast includes facts/Facts.h (facts)")

    def test_facts_may_not_include_a_check(self):
        self.tree.write("lib/facts/Other.h", '\n\n#include "Check.h"\n')
        self.assertOneProblem("lib/facts/Other.h:3", "(checks)")

    def test_the_tracer_may_not_include_the_facts(self):
        self.tree.write("integration/tracer/Trace.cpp", '#include "facts/Facts.h"\n')
        self.assertOneProblem("integration/tracer/Trace.cpp:1", "tracer", "(facts)")

    def test_a_source_outside_the_layer_folders(self):
        self.tree.write("lib/Loose.cpp", "\n")
        self.assertOneProblem("lib/Loose.cpp", "not in a layer folder")

    def test_a_readme_without_its_rule(self):
        self.tree.write("lib/ast/README.md", "# ast\n")
        problems = self.tree.problems()
        self.assertTrue(any("lib/ast/README.md" in p for p in problems), problems)

    def test_a_cycle_between_two_units_of_a_layer(self):
        # Facts.cpp includes Other.h, Other.cpp includes Facts.h: one
        # analysis in two files.
        self.tree.write("lib/facts/Facts.cpp", '#include "facts/Facts.h"\n#include "facts/Other.h"\n')
        self.tree.write("lib/facts/Other.cpp", '#include "facts/Other.h"\n#include "facts/Facts.h"\n')
        self.assertOneProblem("include cycle", "lib/facts/Facts", "lib/facts/Other")

    def test_a_cycle_through_a_third_unit(self):
        self.tree.write("lib/facts/Other.h", '#include "facts/Third.h"\n')
        self.tree.write("lib/facts/Third.h", "\n")
        self.tree.write("lib/facts/Third.cpp", '#include "facts/Third.h"\n#include "facts/Facts.h"\n')
        self.assertOneProblem("include cycle", "lib/facts/Third")

    def test_a_header_and_its_source_are_one_unit(self):
        # Facts.h (which includes Other.h) is included by Facts.cpp and by
        # Uses.cpp, which includes Other.h too: no cycle.
        self.tree.write("lib/facts/Facts.cpp", '#include "facts/Facts.h"\n')
        self.tree.write("lib/facts/Uses.cpp", '#include "facts/Facts.h"\n#include "facts/Other.h"\n')
        self.assertEqual(self.tree.problems(), [])

    def test_a_check_may_not_do_symbolic_arithmetic(self):
        self.tree.write("checks/Check.cpp", '#include "Check.h"\n'
                        "void f(SymExpr A) { auto B = A.mul(SymExpr::constant(4)); }\n")
        self.assertOneProblem("checks/Check.cpp:2", "symbolic arithmetic")

    def test_a_check_may_compare_and_print(self):
        self.tree.write("checks/Check.cpp", '#include "Check.h"\n'
                        "bool f(SymExpr A, SymExpr B) { return provenLess(A, B, {}) && !A.str().empty(); }\n"
                        "// A.mul(B) in a comment is not code\n")
        self.assertEqual(self.tree.problems(), [])

    def test_the_project_follows_its_layers(self):
        self.assertEqual(layers.check(ROOT), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
