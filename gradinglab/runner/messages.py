"""What the grader tells a student, as message ids with arguments, and in English.

The runner has no Django (it runs on GPU hosts and inside the sandbox), so it cannot translate.
It writes each message twice in the result document: ``message`` in English, as before, and
``message_parts``, the ids and arguments it was built from. The web side
(``gradinglab/result_text.py``) says each part in the page's language and falls back to the
English text for anything it does not know. An argument is shown as it is (a name, a number, a
traceback); only the words around it are translated.

A ``Msg`` is a ``str`` (the English text), so code that logs, caps, compares or stores a message
keeps working. ``+`` joins messages and keeps their parts; any other string operation (an
f-string, a slice) gives plain English text with no parts, which the web shows as English.
"""

from __future__ import annotations

import string
from typing import Any

# id -> English template (str.format fields). The web's translations use exactly these fields.
ENGLISH: dict[str, str] = {
    # verdicts the trusted side decides
    "all_passed": "all {n} tests passed",
    "all_passed_cpu": "all {n} tests passed (CPU path: correctness only)",
    "refused_not_text": "the submission must be text",
    "refused_too_large": "the submission is larger than {kib} KiB",
    "refused_nul": "the submission contains NUL bytes",
    "refused_empty": "the submission is empty",
    "sandbox_start": "the sandbox could not start: {error}",
    "internal_error": "internal grader error: {error}",
    "cuda_needs_gpu": "compiled; running CUDA code needs a GPU host (this is not a pass)",
    "protocol_before_seal": "grading harness protocol error before your code ran: {detail}",
    "protocol_after_seal": (
        "your program wrote to the grader's status channel or broke its protocol ({detail}); "
        "the run counts as an attempt"
    ),
    "checking_failed": (
        "the grader could not check what your program wrote ({error}); the run counts as an "
        "attempt and a TA will review it"
    ),
    "harness_phase_failure": "grader failure in phase {phase}: {detail}",
    "cap_before_seal": (
        "the job reached a limit (time, memory, output or disk) before your code was loaded: "
        "the grader's failure, not your code's"
    ),
    "harness_died": (
        "the grading harness stopped before your code was loaded "
        "(phase prepare, exit code {code}, signal {signal})"
    ),
    "timeout_wall": "time limit exceeded: the job ran longer than {seconds} s (wall clock)",
    "timeout_cpu": "time limit exceeded: more than {seconds} s of CPU time",
    "output_limit": ("output limit exceeded: more than {kib} KiB printed; the job was stopped"),
    "disk_limit": (
        "disk limit exceeded: the job directory held more than {mib} MiB beyond what its inputs "
        "need, or too many files; the job was stopped"
    ),
    "memory_limit": "memory limit exceeded ({mib} MiB)",
    "memory_limit_because": "memory limit exceeded ({mib} MiB): ",
    "crashed": "the submission crashed with {signal}",
    "exited_early": "the submission exited before finishing (exit code {code})",
    "outputs_unreadable": "outputs could not be read back as plain tensors: {detail}",
    "test_failed": "test {name}: ",
    "no_outputs": "no outputs came back",
    "hint_returned_value": (
        " (your function returned a value: write results into the output tensors in place)"
    ),
    "hint_repointed": (
        " (your code re-pointed {output} at other memory, e.g. with set_(): "
        "write into the tensor you were given)"
    ),
    "output_not_tensor": "output {output} is {kind}, expected a plain torch.Tensor",
    "output_shape": "output {output} has shape {got}, expected {expected}",
    "output_dtype": "output {output} has dtype {got}, expected {expected}",
    "output_device": "output {output} is on {got}, expected {expected}",
    "elements_differ": (
        "{output}: {mismatches} of {numel} elements differ; first at index {index}: "
        "got {got}, expected {expected} (atol {atol}, rtol {rtol})"
    ),
    "elements_differ_nan": (
        "{output}: {mismatches} of {numel} elements differ; first at index {index}: "
        "got {got}, expected {expected} (got NaN: the element was never written?) "
        "(atol {atol}, rtol {rtol})"
    ),
    "input_wrong_form": "input {input} came back in a different form",
    "input_modified": "input {input} was modified by the submission (inputs are read-only)",
    "timed_wrong_result": "wrong result during timed calls ({bench}, {dtype}): ",
    "timed_snapshot_missing": "a timed call's snapshot is missing",
    "timed_call": "timed call {i}: ",
    "snapshot_missing": "snapshot missing",
    "sampled_output_form": "output {key} came back in the wrong form",
    "sampled_input_form": "input {key} came back in the wrong form",
    "sampled_differ": "{output}: {mismatches} of {numel} elements differ",
    "sum_differs": (
        "{output}: a weighted sum of all {numel} elements is off by {off} (allowed {allowed}): "
        "elements other than the sampled ones are wrong"
    ),
    "sums_spread": (
        "{output}: {terms} weighted sums over blocks of its elements are off by {ratio} times "
        "the spread that errors within tolerance give (root mean square; within tolerance it "
        "stays below {limit}): elements other than the sampled ones are outside tolerance"
    ),
    "bench_output_form": "benchmark output {output} came back in the wrong form",
    "timed_unreadable": "timed outputs could not be read back: {detail}",
    "bench_unreadable": "benchmark outputs could not be read back as plain tensors: {detail}",
    "bench_set_wrong": "wrong result during timed calls ({bench}, set {k}): ",
    "during_timed_calls": "during timed calls: ",
    "no_measurements": "the timing loop returned no measurements",
    "below_floor": (
        "measured time is faster than the hardware allows "
        "({median} ms < floor {floor} ms); a TA will review it"
    ),
    # what the harness says from inside the sandbox
    "out_of_memory_job": "out of memory (the job's memory limit)",
    "out_of_memory": "out of memory: {detail}",
    "grader_failed_after_load": "the grader failed after your code was loaded: {error}",
    "syntax_error": "submission.py, line {line}: {error}\n{text}",
    "syntax_error_at": "submission.py, line {line}, column {column}: {error}\n{text}",
    "import_error": "error while importing your module:\n{traceback}",
    "no_entry": "your module does not define a function named {name}",
    "needs_gpu": (
        "this code needs a GPU (the CPU path runs the Triton interpreter on CPU tensors; "
        'use the inputs\' device, not "cuda"): {reason}'
    ),
    "out_of_bounds": (
        "out-of-bounds {op} in kernel '{kernel}': {count} elements outside every tensor "
        "argument (first at address {address}, {nbytes}-byte elements); mask the access"
    ),
    "out_of_bounds_one": (
        "out-of-bounds {op} in kernel '{kernel}': 1 element outside every tensor argument "
        "(at address {address}, {nbytes}-byte elements); mask the access"
    ),
    "device_assert_failed": "tl.device_assert failed in kernel '{kernel}': {detail}",
    "during_timed_call": "during timed call {i}: ",
    "during_warm_up": "during warm-up: ",
    "nvcc_timeout": "nvcc took longer than {seconds} s",
    "not_shared_object": "the compiled library could not be read back (not a shared object)",
    "no_c_entry": (
        'no function named {name} with C linkage: declare it `extern "C"` (C++ names are mangled)'
    ),
    "cannot_load_library": "cannot load the compiled library: {error}",
}
TEXT = "text"  # the id of a part that is English text with no id (shown as English)

# Earlier English templates of an id. A document stored (or posted by a worker not yet updated)
# before a template changed spells the old text; from_wire keeps its parts all the same, so the
# web still shows it in the page's language.
ENGLISH_BEFORE: dict[str, tuple[str, ...]] = {
    "out_of_bounds": (
        "out-of-bounds {op} in kernel '{kernel}': {count} element(s) outside every tensor "
        "argument (first at address {address}, {nbytes}-byte elements); mask the access",
    ),
}

# The harness's messages come from the process the student's code runs in, so they are claims:
# the trusted side keeps parts from there only with these ids (never a pass or a TA's words).
SANDBOX_IDS = frozenset(
    {
        "out_of_memory_job",
        "out_of_memory",
        "grader_failed_after_load",
        "syntax_error",
        "syntax_error_at",
        "import_error",
        "no_entry",
        "needs_gpu",
        "out_of_bounds",
        "out_of_bounds_one",
        "device_assert_failed",
        "during_timed_call",
        "during_warm_up",
        "nvcc_timeout",
        "not_shared_object",
        "no_c_entry",
        "cannot_load_library",
        "cuda_needs_gpu",
        TEXT,
    }
)
MAX_PARTS = 8
MAX_ARG_CHARS = 2000  # characters of one argument: result_schema.json's maxLength for it


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Msg(str):
    """English text that remembers the message parts it was made of."""

    parts: tuple[dict[str, Any], ...]

    def __new__(cls, message_id: str, **args: Any) -> Msg:
        return cls._of(({"id": message_id, "args": {k: str(v) for k, v in args.items()}},))

    @classmethod
    def _of(cls, parts: tuple[dict[str, Any], ...]) -> Msg:
        self = super().__new__(cls, "".join(english(p) for p in parts))
        self.parts = parts
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # copy and pickle rebuild from parts
        return _rebuild, (self.parts,)

    def __add__(self, other: str) -> Msg:  # type: ignore[override]
        return Msg._of(self.parts + _parts_of(other))

    def __radd__(self, other: str) -> Msg:
        return Msg._of(_parts_of(other) + self.parts)


def _rebuild(parts: tuple[dict[str, Any], ...]) -> Msg:
    return Msg._of(parts)


def english(part: dict[str, Any]) -> str:
    """One part in English (a text part is its text)."""
    if part["id"] == TEXT:
        return part["args"]["text"]
    return ENGLISH[part["id"]].format(**part["args"])


def _parts_of(value: str) -> tuple[dict[str, Any], ...]:
    if isinstance(value, Msg):
        return value.parts
    return ({"id": TEXT, "args": {"text": str(value)}},)


def parts_of(message: str) -> list[dict[str, Any]]:
    """What the result document stores beside the English text: [] for plain text, and for a
    message too long to carry its parts (the text is then capped, saying so, and shown in English)."""
    if not isinstance(message, Msg):
        return []
    parts = [dict(p, args=dict(p["args"])) for p in message.parts]
    return parts if valid_parts(parts) else []


def from_wire(message: str, parts: Any, allowed: frozenset[str] | None = SANDBOX_IDS) -> str:
    """A message read back from elsewhere (the harness; on the web, a worker's document), with its
    parts kept only when every part is well formed, uses an allowed id (None: any known one) with
    exactly its template's fields, and the parts spell ``message``; otherwise the plain text."""
    if not valid_parts(parts, allowed):
        return message
    built = Msg._of(tuple({"id": p["id"], "args": dict(p["args"])} for p in parts))
    return built if str(built) == message or _spelled_before(parts, message) else message


def _spelled_before(parts: list[dict[str, Any]], message: str) -> bool:
    """Whether ``parts`` spell ``message`` with some of their ids' earlier templates."""
    texts = [""]
    for part in parts:
        before = [t.format(**part["args"]) for t in ENGLISH_BEFORE.get(part["id"], ())]
        texts = [text + form for text in texts for form in (english(part), *before)]
    return message in texts


def valid_parts(parts: Any, allowed: frozenset[str] | None = None) -> bool:
    if not isinstance(parts, list) or not 0 < len(parts) <= MAX_PARTS:
        return False
    return all(_valid_part(p, allowed) for p in parts)


def _valid_part(part: Any, allowed: frozenset[str] | None) -> bool:
    if not isinstance(part, dict) or set(part) != {"id", "args"}:
        return False
    pid, args = part["id"], part["args"]
    if (pid != TEXT and pid not in ENGLISH) or (allowed is not None and pid not in allowed):
        return False
    want = {"text"} if pid == TEXT else fields(ENGLISH[pid])
    return (
        isinstance(args, dict)
        and set(args) == want
        and all(isinstance(v, str) and len(v) <= MAX_ARG_CHARS for v in args.values())
    )
