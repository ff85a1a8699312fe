"""The similarity knobs in one place, each with its unit and why it has this value.

Tuned on the 20-student corpus of similarity/tests/test_ranking.py (3 copied pairs with renamed
variables, reordered statements and changed constants, 14 independent solutions, all from one
starter): copied pairs score 0.7-1.0 there, independent ones under 0.3.
"""

from __future__ import annotations

# Tokens per k-gram. A copied statement survives reordering only if it is at least K tokens long;
# a shorter K makes independent solutions of a 15-line kernel collide on idioms like
# `tl.load(V + V, mask=V)`.
K = 10
# Winnowing window, in k-grams: every shared run of at least K + WINDOW - 1 = 14 tokens is found
# (Schleimer, Wilkerson, Aiken 2003); about 2 / (WINDOW + 1) of the k-grams are kept.
WINDOW = 5
# A fingerprint held by at least this many students (or this share of them, whichever is larger)
# is the problem's idiom, not a copy: it is ignored, as MOSS's -m option does.
COMMON_MIN_HOLDERS = 5
COMMON_SHARE = 0.25
# A pair needs at least this many shared fingerprints (after the exclusions) to be scored at all,
# about three lines of a student's own code: a submission that is the starter plus a one-line fix
# has fewer than that left, so two students who wrote the same obvious line are not a pair.
MIN_SHARED = 10
# Shared fraction (0..1, of the smaller submission's fingerprints) from which a pair is listed
# for a TA's review.
REVIEW_THRESHOLD = 0.5
# Pairs kept per run (ranked by shared fraction): enough for a TA, bounded for a big class.
MAX_PAIRS_STORED = 300
# Pairs under this fraction are not stored at all (they would only fill the table).
STORE_FLOOR = 0.1
# Bumped whenever tokenising or hashing changes: an archive made by another version would
# silently never match, so import refuses it instead.
ALGORITHM = f"pdc-winnow-1:k{K}:w{WINDOW}"
