"""No import cycles among the project's own modules (issue 18, must hold 1).

The graph is built from the source with `ast`, never by importing, so a module that is slow or
unsafe to import (the runner's torch paths, the Django-free worker) is walked all the same. Every
import counts, the ones inside functions included: a lazy import only hides a cycle until the day
someone hoists it. Imports under `if TYPE_CHECKING:` never run and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Every top-level package of the project (each Django app, pdcsite), found rather than listed so a
# new app is walked from its first commit.
PACKAGES = tuple(
    sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != ".venv")
)
TOP_LEVEL_MODULES = ("pdcenv.py",)
# Problem packages are data loaded by path (their reference.py, solutions and exploits are not
# modules of the project); migrations are generated and only import models.
SKIPPED_PARTS = {"problems", "migrations", "__pycache__"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    modules = {_module_name(ROOT / name): ROOT / name for name in TOP_LEVEL_MODULES}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if not SKIPPED_PARTS.intersection(path.relative_to(ROOT).parts):
                modules[_module_name(path)] = path
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The deepest project module that `name` names (a.b.func -> a.b), or None if not ours."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    # `from pkg import name`: name is a submodule or an attribute of pkg; _resolve decides.
    return [f"{base}.{alias.name}" for alias in node.names]


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        edges = set()
        for node in _import_nodes(tree):
            for target in _targets(node, module, is_package):
                resolved = _resolve(target, modules)
                if resolved and resolved != module:
                    edges.add(resolved)
        graph[module] = edges
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_the_project_has_no_import_cycles() -> None:
    graph = import_graph()
    assert len(graph) > 200, "the walk found too few modules; is ROOT right?"
    assert find_cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle_through_a_lazy_import() -> None:
    """The check itself: a two-module cycle, and a three-module one, are reported."""
    assert find_cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    tree = ast.parse("def f():\n    from .harness import x\nif TYPE_CHECKING:\n    import y\n")
    nodes = _import_nodes(tree)
    assert [_targets(n, "pkg.timing", False) for n in nodes] == [["pkg.harness.x"]]
