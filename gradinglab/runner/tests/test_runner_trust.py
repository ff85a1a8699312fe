"""Trust split: the secret seed stays on the trusted side, inputs differ per job, phases reported."""

from __future__ import annotations

from gradinglab.runner import grade
from gradinglab.runner.result import validate
from gradinglab.runner.testing import solution

SEED = 987654321012345
# Where the sandbox could hold it: its environment and command line, the job dir's files, and the
# job message (the harness's frames below the submission's call hold it and what came of it).
PROBE = (
    "import os, glob, sys\nimport torch\n\n\ndef vector_add(x, y, out):\n"
    "    blob = ' '.join(os.environ.values())\n"
    "    blob += open('/proc/self/cmdline', 'rb').read().decode('latin-1')\n"
    "    for p in filter(os.path.isfile, glob.glob('/run/job/**', recursive=True)):\n"
    "        blob += open(p, 'rb').read().decode('latin-1')\n"
    "    frame = sys._getframe(1)\n"
    "    while frame:\n"
    "        blob += repr(frame.f_locals)\n"
    "        frame = frame.f_back\n"
    "    found = {head!r} + {tail!r} in blob\n"  # split: the source itself must not hold the seed
    "    raise RuntimeError('SEED-' + ('FOUND' if found else 'ABSENT') + ' X0=%.6f' % float(x[0]))\n"
)


def _x0(doc: dict) -> str:
    return doc["message"].rsplit("X0=", 1)[1].split()[0]


def test_secret_seed_never_enters_the_sandbox_and_inputs_follow_it() -> None:
    src = PROBE.format(head=str(SEED)[:7], tail=str(SEED)[7:])
    assert str(SEED) not in src
    first = grade(slug="vector-add", source=src, backend="triton", seed=SEED, device="cpu")
    validate(first)
    assert "SEED-ABSENT" in first["message"].rsplit("RuntimeError: ", 1)[-1], first["message"]
    again = grade(slug="vector-add", source=src, backend="triton", seed=SEED, device="cpu")
    other = grade(slug="vector-add", source=src, backend="triton", device="cpu")  # secret seed
    assert _x0(first) == _x0(again)  # same seed, same inputs
    assert _x0(first) != _x0(other)  # a fresh secret seed per job


def test_phases_are_reported_in_order() -> None:
    phases: list[str] = []
    doc = grade(
        slug="vector-add",
        source=solution("vector-add", "triton", "correct.py"),
        backend="triton",
        device="cpu",
        on_phase=phases.append,
    )
    assert doc["status"] == "accepted"
    assert phases == ["compiling", "testing"]  # "timing" follows on the GPU path only
