"""The staff pages' per-student writes (``/grades/staff/students/<pk>/<action>/``), each with form
data its form accepts for a graded item of at least 5 points with a due date, for the tests of who
may post them; the item goes in as ``<action>-item``."""

STUDENT_ACTIONS = [
    ("override", {"override-points": "5", "override-reason": "x"}),
    ("override_clear", {"override_clear-reason": "x"}),
    ("extension", {"extension-extra_days": "3"}),
    ("extension_revoke", {}),
    ("excuse", {"excuse-excused": "1", "excuse-reason": "x"}),
]
