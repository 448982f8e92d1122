"""Remove embedlab's checks on purpose, one at a time, and show that the tests notice (``make mutants``).

Each mutant is a copy of ``src/`` and ``tests/`` in a scratch folder where one checking function returns
at once, as if the check were not there. The tests that cover it (``tests/test_hostile.py`` and the
module's own test file) run against that copy; a mutant is *caught* when they fail. A check whose removal
no test notices is a check no test holds, and the script exits with status 1 naming it.

    python scripts/remove_checks.py            # every mutant
    python scripts/remove_checks.py check_finite train._check_seed   # some of them
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (module, function or Class.method, what it returns instead of checking, the tests that must notice)
MUTANTS = [
    ("_validation", "check_nbytes", "None", ["test_hostile.py", "test_lookup.py"]),
    ("_validation", "check_finite", "None", ["test_hostile.py", "test_softmax.py"]),
    ("_validation", "_check_id_range", "None", ["test_hostile.py", "test_lookup.py"]),
    ("_validation", "check_size", "value", ["test_hostile.py", "test_budget.py"]),
    ("_validation", "check_flag", "value", ["test_hostile.py", "test_budget.py"]),
    ("_validation", "check_real", "value", ["test_hostile.py", "test_geometry.py"]),
    ("train", "_check_seed", "seed", ["test_hostile.py", "test_train.py"]),
    ("train", "_check_work", "np.result_type(np.float32, *(v.dtype for v in p.values()))", ["test_hostile.py"]),
    ("train", "_check_positive_float", "value", ["test_hostile.py", "test_train.py"]),
    ("corpus", "Corpus.__post_init__", "None", ["test_hostile.py", "test_train.py"]),
    ("quiz", "_check_choice_text", "value", ["test_hostile.py", "test_quiz.py"]),
    ("quiz", "_check_messages", "tuple(slips)", ["test_hostile.py", "test_quiz.py"]),
    ("widgets", "_check_rgba", "None", ["test_hostile.py", "test_widgets.py"]),
    ("train_plots", "_check_geometry", "(np.asarray(coords), np.asarray(classes))", ["test_hostile.py"]),
    ("display", "check_figsize", "figsize", ["test_hostile.py", "test_display.py"]),
]


def _function(tree: ast.Module, dotted: str) -> ast.FunctionDef:
    scope: list[ast.stmt] = tree.body
    *outer, name = dotted.split(".")
    for cls in outer:
        scope = next(n for n in scope if isinstance(n, ast.ClassDef) and n.name == cls).body
    return next(n for n in scope if isinstance(n, ast.FunctionDef) and n.name == name)


def mutate(source: str, dotted: str, returns: str) -> str:
    """``source`` with ``dotted`` returning ``returns`` before its first statement (after its docstring)."""
    node = _function(ast.parse(source), dotted)
    body = node.body
    first = body[1] if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) else body[0]
    lines = source.splitlines(keepends=True)
    indent = " " * first.col_offset
    lines.insert(first.lineno - 1, f"{indent}return {returns}  # mutant: the check removed\n")
    return "".join(lines)


def run(module: str, dotted: str, returns: str, tests: list[str], scratch: Path) -> tuple[bool, str, float]:
    copy = scratch / f"{module}.{dotted}"
    shutil.copytree(ROOT / "src", copy / "src")
    shutil.copytree(ROOT / "tests", copy / "tests")
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    path = copy / "src" / "embedlab" / f"{module}.py"
    path.write_text(mutate(path.read_text(), dotted, returns))
    env = {**os.environ, "PYTHONPATH": str(copy / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    where = subprocess.run(
        [sys.executable, "-c", "import embedlab; print(embedlab.__file__)"], env=env, capture_output=True, text=True
    ).stdout
    if not where.startswith(str(copy)):  # the editable install would hide the mutant
        raise RuntimeError(f"the mutant is not what Python imports: embedlab comes from {where.strip()!r}")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *(f"tests/{t}" for t in tests)],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return (
        done.returncode != 0,
        (failed[0][:150] if failed else done.stdout.strip().splitlines()[-1]),
        (time.perf_counter() - started),
    )


def main(selected: list[str]) -> int:
    chosen = [m for m in MUTANTS if not selected or m[1] in selected or f"{m[0]}.{m[1]}" in selected]
    missed = []
    with tempfile.TemporaryDirectory(prefix="embedlab-mutants-") as scratch:
        for module, dotted, returns, tests in chosen:
            caught, first, seconds = run(module, dotted, returns, tests, Path(scratch))
            verdict = "caught" if caught else "MISSED"
            print(f"{verdict:7s} {module + '.' + dotted:36s} {seconds:4.0f} s  {first}", flush=True)
            if not caught:
                missed.append(f"{module}.{dotted}")
    print(f"{len(chosen) - len(missed)} of {len(chosen)} removed checks caught by the tests")
    if missed:
        print("no test notices the removal of: " + ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
