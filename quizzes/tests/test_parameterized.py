"""Must hold 5: parameterized questions. Same student + same attempt -> same numbers (also across
a reload); different students -> different numbers; the code-computed answer matches an
independent calculation written here, and grading accepts it."""

import math
import re
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest
from django.conf import settings

from quizzes.bank import load_bank_dir
from quizzes.generators import GENERATORS, generate
from quizzes.models import Question
from quizzes.selectors import attempt_questions
from quizzes.services import attempt_start
from quizzes.tests.factories import quiz_with


def _zero(p: dict) -> float:
    psi, n, k = p["psi"], p["nd"], p["k"]
    per_param = {0: 4 + k, 1: 4 + k / n, 2: 2 + (2 + k) / n, 3: (4 + k) / n}[p["stage"]]
    return psi * per_param


def _launches(n: int, b: int) -> int:
    count = 0
    while n > 1:
        n = -(-n // b)
        count += 1
    return count


def _smallest_n(p: dict) -> int:
    """Brute force over n with exact fractions: the first n whose Amdahl speedup reaches s."""
    frac = Fraction(str(p["p"]))
    n = 1
    while 1 / ((1 - frac) + frac / n) < p["s"]:
        n += 1
    return n


# Independent formulas (standard textbook forms), deliberately not importing quizzes.generators.
INDEPENDENT = {
    "amdahl_speedup": lambda p: 1 / ((1 - p["p"]) + p["p"] / p["n"]),
    "gustafson_speedup": lambda p: (1 - p["p"]) + p["p"] * p["n"],
    "amdahl_limit": lambda p: 1 / (1 - p["p"]),
    "pcie_transfer_time": lambda p: p["size_gb"] / (4 * p["lanes"]),
    "occupancy_registers": lambda p: min(
        p["sm_regs"] // (p["regs"] * p["threads"]), p["sm_threads"] // p["threads"]
    )
    * p["threads"]
    / 32,
    "occupancy_shared_memory": lambda p: min(
        p["sm_smem"] // p["smem"], p["sm_threads"] // p["threads"]
    )
    * p["threads"],
    "coalesced_transactions": lambda p: len(
        {(int(p["base"], 16) + 4 * p["stride"] * t) // 32 for t in range(p["threads"])}
    ),
    "grid_blocks": lambda p: math.ceil(p["n"] / p["block"]),
    "tiled_conv_intensity": lambda p: (p["t"] - p["m"] + 1) ** 2 * p["m"] ** 2 / p["t"] ** 2,
    "reduction_kernel_launches": lambda p: _launches(p["n"], p["b"]),
    "interleaved_bank_conflict": lambda p: Counter(
        (2 * p["s"] * t) % 32 for t in range(p["active"])
    ).most_common(1)[0][1],
    "attention_hbm_ratio": lambda p: 1 + p["n"] / p["d"],
    "attention_score_memory": lambda p: p["n"] ** 2 * p["h"] * 2 / 2**30,
    "roofline_attainable": lambda p: min(p["peak"], p["ai"] * p["bw"]),
    "winograd_multiplications": lambda p: p["m"] * p["r"] / (p["m"] + p["r"] - 1),
    "fused_softmax_traffic": lambda p: 4 + 2 / p["n"],
    "gemm_intensity": lambda p: p["n"] / 3,
    "wgmma_flops": lambda p: 2 * 64 * p["n"] * 16,
    "triton_grid_programs": lambda p: math.ceil(p["m"] / p["bm"]) * math.ceil(p["n"] / p["bn"]),
    "zero_memory_per_gpu": _zero,
    "pipeline_bubble": lambda p: (p["k"] - 1) / (p["m"] + p["k"] - 1),
    "hybrid_dp_degree": lambda p: p["total"] / (p["tp"] * p["pp"]),
    "ring_allreduce_cost": lambda p: 2 * (p["p"] - 1) * p["alpha"]
    + 2 * (p["p"] - 1) / p["p"] * p["n"] * 1000 / p["bw"],
    "mst_broadcast_cost": lambda p: math.ceil(math.log2(p["p"]))
    * (p["alpha"] + p["n"] * p["beta"]),
    "pipelined_broadcast_rounds": lambda p: p["p"] + p["k"] - 2,
    "amdahl_processors_needed": _smallest_n,
    "conv_input_tile": lambda p: (p["o"] + 2 * (p["m"] // 2)) ** 2,
    "kv_cache_size": lambda p: 2 * p["layers"] * p["heads"] * p["d"] * p["n"] * p["b"] * 2 / 2**30,
    "flash_tile_pairs": lambda p: -(-p["n"] // p["br"]) * -(-p["n"] // p["bc"]),
    "img2col_elements": lambda p: (p["c"] * p["k"] ** 2) * (p["h"] * p["w"]),
    "mma_instruction_count": lambda p: p["m"] * p["n"] * p["k"] / (16 * 8 * 16),
    "gemm_tile_intensity": lambda p: p["bm"] * p["bn"] / (p["bm"] + p["bn"]),
    "triton_masked_lanes": lambda p: (-p["n"]) % p["block"],
    "elementwise_fusion_traffic": lambda p: (2 * p["k"] - 2) * p["n"] * 4,
    "interleaved_bubble": lambda p: (p["k"] - 1) / p["m"] / p["v"],
    "ring_allgather_cost": lambda p: (p["p"] - 1) * p["alpha"]
    + (p["p"] - 1) / p["p"] * p["n"] / p["bw"] * 1000,
    "halving_doubling_allreduce_cost": lambda p: 2 * math.log2(p["p"]) * p["alpha"]
    + 2 * (p["p"] - 1) / p["p"] * p["n"] * p["beta"],
}


def test_every_generator_has_an_independent_check() -> None:
    assert set(INDEPENDENT) == set(GENERATORS)


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_generator_answers_match_independent_formulas(name: str) -> None:
    for seed in range(60):
        variant = generate(name, seed)
        expected = INDEPENDENT[name](variant.params)
        assert variant.answer == pytest.approx(expected, rel=1e-9), (name, seed, variant.params)


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_generator_is_deterministic_in_its_seed(name: str) -> None:
    assert generate(name, 12345) == generate(name, 12345)
    assert len({repr(generate(name, s).params) for s in range(40)}) > 1


@pytest.fixture(scope="module")
def param_specs():
    """The real bank's parameterized questions (parsed once; no anchor check needed here)."""
    banks = load_bank_dir(settings.BASE_DIR / "content" / "quizzes", anchors=None)
    return [q for bank in banks for q in bank.questions if q.type == "param"]


@pytest.fixture
def param_quiz(db, param_specs):
    questions = [
        Question.objects.create(
            bank_id=q.id,
            lecture=q.lecture,
            section=q.section,
            qtype="param",
            stem=q.stem,
            explanation=q.explanation,
            generator=q.generator,
        )
        for q in param_specs
    ]
    assert len(questions) >= 12
    return quiz_with(questions, slug="param-quiz", max_attempts=3)


def _numbers(html: str) -> list[str]:
    stems = re.findall(r'<span class="stem"[^>]*>(.*?)</span>', html, flags=re.S)
    return stems


def test_same_attempt_same_numbers_across_reload(param_quiz, student_a, client_a) -> None:
    attempt = attempt_start(quiz=param_quiz, student=student_a)
    first = _numbers(client_a.get(f"/quizzes/attempt/{attempt.pk}/").content.decode())
    second = _numbers(client_a.get(f"/quizzes/attempt/{attempt.pk}/").content.decode())
    assert len(first) == param_quiz.pool.count() and first == second
    # resuming (a second "start") returns the same attempt with the same numbers
    assert attempt_start(quiz=param_quiz, student=student_a).pk == attempt.pk
    assert [v.params for v in attempt_questions(attempt)] == [
        v.params for v in attempt_questions(attempt)
    ]


def test_different_students_get_different_numbers(param_quiz, student_a, student_b) -> None:
    a = attempt_questions(attempt_start(quiz=param_quiz, student=student_a))
    b = attempt_questions(attempt_start(quiz=param_quiz, student=student_b))
    differing = sum(x.params != y.params for x, y in zip(a, b, strict=True))
    # independent 63-bit seeds: nearly every question differs; demand a clear majority
    assert differing >= len(a) * 2 // 3, differing


def test_independently_computed_answers_earn_full_marks(param_quiz, student_a, client_a) -> None:
    attempt = attempt_start(quiz=param_quiz, student=student_a)
    for view in attempt_questions(attempt):
        expected = INDEPENDENT[view.question.generator](view.params)
        response = client_a.post(
            f"/quizzes/attempt/{attempt.pk}/answer/{view.question.pk}/",
            {"value": f"{expected:.10g}"},
        )
        assert response["X-Quiz-Saved"] == "1"
    client_a.post(f"/quizzes/attempt/{attempt.pk}/submit/")
    attempt.refresh_from_db()
    assert attempt.raw_score == attempt.raw_max == Decimal(param_quiz.pool.count())


def test_answers_outside_tolerance_earn_nothing(param_quiz, student_b, client_b) -> None:
    attempt = attempt_start(quiz=param_quiz, student=student_b)
    for view in attempt_questions(attempt):
        wrong = INDEPENDENT[view.question.generator](view.params) * 1.05 + 1  # > 1 % and > 0 off
        client_b.post(
            f"/quizzes/attempt/{attempt.pk}/answer/{view.question.pk}/", {"value": f"{wrong:.10g}"}
        )
    client_b.post(f"/quizzes/attempt/{attempt.pk}/submit/")
    attempt.refresh_from_db()
    assert attempt.raw_score == Decimal("0")
