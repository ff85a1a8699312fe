"""Views, API views and admin actions ask the access modules; they never test a role or filter by
owner themselves (issue 18, must hold 2).

The access modules are ``accounts/access.py`` (staff, ``visible_to``/``owned_by`` querysets) and
each app's ``access.py`` built on it. A static check over the source (``ast``, nothing imported):
in every ``views.py``, ``staff_views.py``, ``api.py`` and ``admin.py`` of the project's apps it
finds

- a role test of its own: a call of ``role_of`` or ``has_perm``, a read of ``is_superuser``,
  ``is_staff`` or ``groups``, or an import of ``accounts.roles`` (the access modules answer "is
  this staff", "may this user ...");
- an owner filter of its own: a ``filter``/``exclude``/``get``/``get_object_or_404``/... call with
  an owner keyword (``student=``, ``user=``, ``owner=`` ...) set to the requesting user (the
  querysets' ``owned_by(user)`` and ``visible_to(user)`` say that once).

Each exception is listed in ALLOWED with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Every Django app of the project, found rather than listed so a new app is checked from the start.
APPS = tuple(sorted(p.parent.name for p in ROOT.glob("*/apps.py")))
CHECKED_FILES = ("views.py", "staff_views.py", "api.py", "admin.py")
ROLE_CALLS = {"role_of", "has_perm", "has_perms"}
ROLE_ATTRIBUTES = {"is_superuser", "is_staff", "groups"}
LOOKUPS = {"filter", "exclude", "get", "get_object_or_404", "get_list_or_404", "first_or_404"}
OWNER_KEYWORDS = {"student", "student_id", "user", "user_id", "owner", "owner_id", "author"}

# (file, function, what) -> why it is not a call of the access module.
ALLOWED: dict[tuple[str, str, str], str] = {
    ("accounts/admin.py", "<module>", "imports accounts.roles"): (
        "the admin names the role groups by their labels (group_label, group_labels) and keeps a "
        "role group from being renamed or deleted (ROLES); it decides no one's access"
    ),
}


def _checked_files() -> list[Path]:
    return sorted(
        path for app in APPS for name in CHECKED_FILES if (path := ROOT / app / name).exists()
    )


def _is_request_user(node: ast.AST) -> bool:
    """`request.user`, `self.request.user`, or those with `.pk`/`.id` taken."""
    if isinstance(node, ast.Attribute) and node.attr in ("pk", "id"):
        node = node.value
    if not (isinstance(node, ast.Attribute) and node.attr == "user"):
        return False
    base = node.value
    return (isinstance(base, ast.Name) and base.id == "request") or (
        isinstance(base, ast.Attribute) and base.attr == "request"
    )


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _imports_roles(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.module == "accounts.roles" or (
            node.module == "accounts" and any(a.name == "roles" for a in node.names)
        )
    return any(alias.name == "accounts.roles" for alias in node.names)


def _findings_in(node: ast.AST) -> list[str]:
    found = []
    for child in ast.walk(node):
        if isinstance(child, ast.ImportFrom | ast.Import) and _imports_roles(child):
            found.append("imports accounts.roles")
        elif isinstance(child, ast.Call) and _call_name(child) in ROLE_CALLS:
            found.append(f"role test {_call_name(child)}()")
        elif isinstance(child, ast.Attribute) and child.attr in ROLE_ATTRIBUTES:
            found.append(f"role test .{child.attr}")
        elif isinstance(child, ast.Call) and _call_name(child) in LOOKUPS:
            for keyword in child.keywords:
                if keyword.arg in OWNER_KEYWORDS and _is_request_user(keyword.value):
                    found.append(f"owner filter {keyword.arg}=request.user")
    return found


def violations(source: str, filename: str) -> list[tuple[str, str, str]]:
    """(file, enclosing function or "<module>", what) for every role test or owner filter."""
    tree = ast.parse(source, filename=filename)
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    inner = {id(c) for f in functions for c in ast.walk(f) if c is not f}
    found = []
    for function in functions:
        if id(function) in inner:
            continue  # reported under its outermost function
        found += [(filename, function.name, what) for what in _findings_in(function)]
    in_functions = {id(c) for f in functions for c in ast.walk(f)}
    module_level = [n for n in ast.walk(tree) if id(n) not in in_functions and n is not tree]
    for node in module_level:
        if isinstance(node, ast.Call | ast.Attribute | ast.Import | ast.ImportFrom):
            found += [(filename, "<module>", what) for what in _findings_in(node)]
    return sorted(set(found))


def test_views_api_and_admin_ask_the_access_modules() -> None:
    files = _checked_files()
    assert len(files) >= 15, "too few view/admin files found; is ROOT right?"
    found = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        found += violations(path.read_text(encoding="utf-8"), rel)
    unexplained = [v for v in found if v not in ALLOWED]
    assert unexplained == [], "filter through accounts.access / <app>.access instead"
    stale = [key for key in ALLOWED if key not in found]
    assert stale == [], "ALLOWED lists exceptions that no longer exist"


def test_the_check_sees_role_tests_and_owner_filters() -> None:
    """The check itself, on the patterns it replaced (quizzes' _own_attempt, the admin's checks)."""
    source = """
from accounts.roles import is_staff_member

def own(request, pk):
    return get_object_or_404(Attempt.objects.all(), pk=pk, student=request.user)

def mine(request):
    return Submission.objects.filter(student_id=request.user.pk)

def action(self, request):
    return request.user.has_perm("gradinglab.rerun_submission")

def staff(request):
    return role_of(request.user) in ("ta",) or request.user.is_superuser

def fine(request, pk):
    services.attempt_start(student=request.user)
    return get_object_or_404(Attempt.objects.owned_by(request.user), pk=pk)
"""
    assert violations(source, "x.py") == [
        ("x.py", "<module>", "imports accounts.roles"),
        ("x.py", "action", "role test has_perm()"),
        ("x.py", "mine", "owner filter student_id=request.user"),
        ("x.py", "own", "owner filter student=request.user"),
        ("x.py", "staff", "role test .is_superuser"),
        ("x.py", "staff", "role test role_of()"),
    ]
