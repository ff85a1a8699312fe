"""Pure checks of the kernel-lab problem packages (no sandbox, no Django database).

For each package: problem.yaml is complete and well-typed, the tests include tiny and odd /
non-power-of-two shapes, cost formulas evaluate, make_outputs is a sentinel (never zeros), an
all-zero answer fails the tolerance, and reference.py agrees with an independent NumPy
computation. Solutions themselves are graded end to end in test_solutions.py.
"""

from __future__ import annotations

import ast
import inspect
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
import yaml

from gradinglab.runner.problems import PROBLEMS_DIR, eval_cost, load_problem
from lectures.notes import NOTES_PATH

SLUGS = [
    "sum-reduction",
    "softmax",
    "layernorm",
    "matmul",
    "conv2d",
    "transpose",
    "histogram",
    "flash-attention",
]
CUDA_SLUGS = {"sum-reduction", "transpose", "histogram", "conv2d", "matmul"}
TORCH_DTYPES = {"float32": torch.float32, "float16": torch.float16, "int32": torch.int32}
SECTION_RE = re.compile(r"^sec-(\d+)-(\d+)$")
STATUS_LINE_RE = re.compile(r"Expected CPU-path status: ([a-z_]+)")
NOTES = NOTES_PATH


def _raw(slug: str) -> dict[str, Any]:
    return yaml.safe_load((PROBLEMS_DIR / slug / "problem.yaml").read_text(encoding="utf-8"))


def _size_keys(shape: dict[str, int]) -> dict[str, int]:
    # Flags (causal, all_in_last_bin) and the filter radius are not sizes: they do not make a
    # shape "odd".
    return {k: v for k, v in shape.items() if k not in ("causal", "radius", "all_in_last_bin")}


def _cases(slug: str) -> list[tuple[str, dict[str, int], str]]:
    raw = _raw(slug)
    return [(t["name"], t["shape"], dt) for t in raw["tests"] for dt in raw["dtypes"]]


ALL_CASES = [(slug, *case) for slug in SLUGS for case in _cases(slug)]


def _case_id(case: tuple) -> str:
    return f"{case[0]}/{case[1]}/{case[3]}"


# --- problem.yaml -------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_problem_yaml_fields_present_and_well_typed(slug: str) -> None:
    raw = _raw(slug)
    assert raw["schema"] == 1 and raw["slug"] == slug
    for field in ("title", "statement"):
        assert set(raw[field]) == {"zh", "en"}, f"{slug}: {field} needs zh and en"
        assert all(isinstance(v, str) and v.strip() for v in raw[field].values())
    entry = raw["entry_point"]
    assert entry["name"].isidentifier()
    assert entry["triton"].startswith(entry["name"] + "(")
    for lang in ("zh", "en"):  # the statement documents the exact entry point
        assert entry["triton"] in raw["statement"][lang], f"{slug}/{lang}: Triton signature missing"
    expected_backends = ["triton", "cuda"] if slug in CUDA_SLUGS else ["triton"]
    assert raw["backends"] == expected_backends
    if "cuda" in raw["backends"]:
        assert entry["cuda"].startswith(f'extern "C" void {entry["name"]}(')
        for lang in ("zh", "en"):
            assert entry["cuda"] in raw["statement"][lang], f"{slug}/{lang}: CUDA signature missing"
    assert raw["dtypes"] and all(d in TORCH_DTYPES for d in raw["dtypes"])
    for dtype in raw["dtypes"]:
        tol = raw["tolerances"][dtype]
        assert set(tol) == {"atol", "rtol"}
        assert all(isinstance(v, int | float) and 0 <= v < 1 for v in tol.values())
    assert raw["bound"] in ("memory", "compute")
    scoring = raw["scoring"]
    assert scoring["correctness"] + scoring["performance"] == 100
    assert 0 < scoring["target_fraction_of_roofline"] <= 1
    load_problem(slug)  # the runner's own parser accepts it


@pytest.mark.parametrize("slug", SLUGS)
def test_sections_exist_in_course_notes(slug: str) -> None:
    sections = _raw(slug)["sections"]
    assert sections and all(SECTION_RE.match(s) for s in sections), sections
    headings = set(re.findall(r"^(\d+\.\d+) ", NOTES.read_text(encoding="utf-8"), re.M))
    for sec in sections:
        lecture, section = SECTION_RE.match(sec).groups()
        assert f"{lecture}.{section}" in headings, f"{slug}: {sec} is not a section of the notes"


@pytest.mark.parametrize("slug", SLUGS)
def test_statement_math_renders_in_both_languages(slug: str) -> None:
    """As the lab page shows it: every formula is MathML, none left as $…$ LaTeX or as the
    readable fallback (conv2d's and layernorm's wrapped $$…$$ formulas once showed raw)."""
    from gradinglab.services.problem_sync import _problem_fields

    fields = _problem_fields(load_problem(slug))
    for lang in ("zh", "en"):
        html = fields[f"statement_{lang}_html"]
        prose = re.sub(r"<(pre|code)\b.*?</\1>", "", html, flags=re.S)
        assert "$" not in prose and "math-fallback" not in html, f"{slug} ({lang})"


@pytest.mark.parametrize("slug", SLUGS)
def test_tests_include_tiny_odd_and_non_power_of_two_shapes(slug: str) -> None:
    raw = _raw(slug)
    tests, benches = raw["tests"], raw["benchmarks"]
    assert len(tests) >= 3 and benches
    names = [t["name"] for t in tests + benches]
    assert len(names) == len(set(names)), f"{slug}: duplicate case names"
    for case in tests + benches:
        assert all(isinstance(v, int) and v >= 0 for v in case["shape"].values())
    sizes = [_size_keys(t["shape"]) for t in tests]
    assert any(t["name"] == "tiny" for t in tests)
    assert min(math.prod(s.values()) for s in sizes) <= 16, f"{slug}: no tiny test"
    assert any(v % 2 == 1 and v > 1 for s in sizes for v in s.values()), f"{slug}: no odd size"
    assert any(v & (v - 1) and v % 2 == 0 for s in sizes for v in s.values()), (
        f"{slug}: no even non-power-of-two size"
    )
    # Benchmarks are GPU-sized: at least a million output or input elements.
    assert all(math.prod(_size_keys(b["shape"]).values()) >= 1 << 20 for b in benches)


@pytest.mark.parametrize("slug", SLUGS)
def test_cost_formulas_evaluate(slug: str) -> None:
    raw = _raw(slug)
    assert set(raw["cost"]) == {"bytes", "flops"}
    for case in raw["tests"] + raw["benchmarks"]:
        for dtype in raw["dtypes"]:
            names = {
                **case["shape"],
                "elem": torch.empty(0, dtype=TORCH_DTYPES[dtype]).element_size(),
            }
            nbytes = eval_cost(raw["cost"]["bytes"], names)
            flops = eval_cost(raw["cost"]["flops"], names)
            assert math.isfinite(nbytes) and nbytes > 0, (slug, case["name"], nbytes)
            assert math.isfinite(flops) and flops >= 0, (slug, case["name"], flops)


def test_cost_formulas_match_hand_computed_values() -> None:
    shape = {"batch": 1, "heads": 2, "seq": 8, "dim": 16, "causal": 1}
    raw = _raw("flash-attention")["cost"]
    assert eval_cost(raw["flops"], {**shape, "elem": 2}) == 4 * 2 * 8 * 8 * 16 / 2
    raw = _raw("conv2d")["cost"]
    conv = {"height": 10, "width": 20, "radius": 2, "elem": 4}
    assert eval_cost(raw["bytes"], conv) == (2 * 200 + 25) * 4
    assert eval_cost(_raw("matmul")["cost"]["flops"], {"m": 2, "n": 3, "k": 5, "elem": 4}) == 60


# --- files: starters and solutions --------------------------------------------------------------


def _entry_arity(path: Path, name: str) -> int:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    assert len(funcs) == 1, f"{path}: defines {name} {len(funcs)} times"
    return len(funcs[0].args.args)


@pytest.mark.parametrize("slug", SLUGS)
def test_starters_parse_and_match_the_calling_convention(slug: str) -> None:
    raw, ref = _raw(slug), load_problem(slug).reference_module()
    pkg, name = PROBLEMS_DIR / slug, raw["entry_point"]["name"]
    shape = raw["tests"][0]["shape"]
    dtype = TORCH_DTYPES[raw["dtypes"][0]]
    inputs = ref.make_inputs(shape, dtype, torch.Generator().manual_seed(0), "cpu")
    args = ref.call_args(inputs, ref.make_outputs(shape, dtype, "cpu"), shape)
    assert _entry_arity(pkg / "starter.py", name) == len(args)
    assert (pkg / "starter.cu").is_file() == (slug in CUDA_SLUGS)
    if slug in CUDA_SLUGS:
        # extern "C" entry point with one parameter per call_args value, as the harness calls it.
        text = (pkg / "starter.cu").read_text(encoding="utf-8")
        assert raw["entry_point"]["cuda"] + " {" in text
        assert raw["entry_point"]["cuda"].count(",") + 1 == len(args)


@pytest.mark.parametrize("slug", SLUGS)
def test_solutions_are_listed_labelled_and_varied(slug: str) -> None:
    pkg = PROBLEMS_DIR / slug
    expected = yaml.safe_load((pkg / "solutions" / "expected.yaml").read_text(encoding="utf-8"))
    assert set(expected) == set(_raw(slug)["backends"])
    name = _raw(slug)["entry_point"]["name"]
    for backend, ext in (("triton", ".py"), ("cuda", ".cu")):
        listed = expected.get(backend) or {}
        on_disk = {p.name for p in (pkg / "solutions" / backend).glob(f"*{ext}")}
        assert set(listed) == on_disk, f"{slug}/{backend}: expected.yaml and files differ"
        if backend not in expected:
            continue
        good = "accepted" if backend == "triton" else "needs_gpu"
        correct = [f for f in listed if f.startswith("correct")]
        assert correct and all(listed[f] == good for f in correct), f"{slug}/{backend}"
        assert len(listed) - len(correct) >= 3, f"{slug}/{backend}: fewer than 3 known-wrong"
        assert "compile_error" in listed.values()
        if backend == "triton":
            assert all(listed[f] != "accepted" for f in listed if f not in correct)
        for fname, status in listed.items():
            text = (pkg / "solutions" / backend / fname).read_text(encoding="utf-8")
            match = STATUS_LINE_RE.search(text.splitlines()[0])
            assert match and match.group(1) == status, f"{slug}/{fname}: header disagrees"
            if backend == "triton" and status != "compile_error":
                ast.parse(text)
                assert _entry_arity(pkg / "solutions" / backend / fname, name) >= 1
    if "triton" in expected:
        statuses = set(expected["triton"].values())
        assert {"runtime_error", "wrong_answer"} <= statuses, f"{slug}: need OOB and wrong answers"


# --- reference.py -------------------------------------------------------------------------------


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().to(torch.float64).numpy() if t.is_floating_point() else t.numpy()


def _np_softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _np_conv2d(x: np.ndarray, w: np.ndarray, r: int) -> np.ndarray:
    h, wd = x.shape
    padded = np.zeros((h + 2 * r, wd + 2 * r))
    padded[r : r + h, r : r + wd] = x
    out = np.zeros((h, wd))
    for a in range(2 * r + 1):
        for b in range(2 * r + 1):
            out += w[a, b] * padded[a : a + h, b : b + wd]
    return out


def _np_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: int) -> np.ndarray:
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    return _np_softmax(s) @ v


def _independent(slug: str, x: dict[str, np.ndarray], shape: dict[str, int]) -> dict[str, Any]:
    """The expected outputs computed a second way, in float64 NumPy."""
    if slug == "sum-reduction":
        return {"out": np.array([x["x"].sum()])}
    if slug == "softmax":
        return {"out": _np_softmax(x["x"])}
    if slug == "layernorm":
        mu = x["x"].mean(axis=1, keepdims=True)
        var = ((x["x"] - mu) ** 2).mean(axis=1, keepdims=True)
        return {"out": (x["x"] - mu) / np.sqrt(var + 1e-5) * x["weight"] + x["bias"]}
    if slug == "matmul":
        return {"c": x["a"] @ x["b"]}
    if slug == "conv2d":
        return {"out": _np_conv2d(x["x"], x["weight"], shape["radius"])}
    if slug == "transpose":
        return {"out": x["x"].T}
    if slug == "histogram":
        return {"hist": np.bincount(x["data"], minlength=shape["num_bins"])}
    if slug == "flash-attention":
        return {"out": _np_attention(x["q"], x["k"], x["v"], shape["causal"])}
    raise AssertionError(f"no independent computation for {slug}")


@pytest.fixture(scope="module")
def references() -> dict[str, Any]:
    return {slug: load_problem(slug).reference_module() for slug in SLUGS}


@pytest.mark.parametrize("case", ALL_CASES, ids=_case_id)
def test_reference_matches_independent_numpy(case: tuple, references: dict[str, Any]) -> None:
    slug, _, shape, dtype_name = case
    ref, dtype = references[slug], TORCH_DTYPES[dtype_name]
    atol, rtol = load_problem(slug).tolerance(dtype_name)
    inputs = ref.make_inputs(shape, dtype, torch.Generator().manual_seed(1234), "cpu")
    kept = {k: v.clone() for k, v in inputs.items()}
    outputs = ref.make_outputs(shape, dtype, "cpu")
    expected = ref.reference(inputs, shape)
    assert all(torch.equal(inputs[k], kept[k]) for k in inputs), "reference mutated its inputs"
    assert all(v.dtype == dtype for v in inputs.values() if v.is_floating_point())
    assert set(expected) == set(outputs)
    independent = _independent(slug, {k: _np(v) for k, v in inputs.items()}, shape)
    for key, want in independent.items():
        got = expected[key]
        assert got.shape == outputs[key].shape and got.dtype == outputs[key].dtype == dtype
        # Half the problem tolerance: the reference is only rounded to the output dtype.
        np.testing.assert_allclose(_np(got), want, atol=atol / 2, rtol=rtol / 2 + 1e-12)


@pytest.mark.parametrize("case", ALL_CASES, ids=_case_id)
def test_outputs_are_sentinels_and_zero_answer_fails(case: tuple, references: dict) -> None:
    slug, _, shape, dtype_name = case
    ref, dtype = references[slug], TORCH_DTYPES[dtype_name]
    atol, rtol = load_problem(slug).tolerance(dtype_name)
    outputs = ref.make_outputs(shape, dtype, "cpu")
    inputs = ref.make_inputs(shape, dtype, torch.Generator().manual_seed(7), "cpu")
    expected = ref.reference(inputs, shape)
    for key, out in outputs.items():
        assert type(out) is torch.Tensor and out.is_contiguous()
        if out.is_floating_point():
            assert bool(out.isnan().all()), f"{slug}: {key} must start as NaN"
        else:
            assert bool((out != 0).all()), f"{slug}: {key} must not start as zeros"
        # KernelBench issue 165: outputs below atol would let an all-zero answer pass.
        want = expected[key].to(torch.float64)
        zero_passes = torch.allclose(torch.zeros_like(want), want, atol=atol, rtol=rtol)
        assert not zero_passes, f"{slug}/{key}: an all-zero answer would pass"


@pytest.mark.parametrize("slug", SLUGS)
def test_inputs_depend_on_the_seed_only(slug: str, references: dict) -> None:
    ref, raw = references[slug], _raw(slug)
    shape = raw["tests"][1]["shape"]
    dtype = TORCH_DTYPES[raw["dtypes"][0]]

    def inputs(seed: int) -> dict[str, torch.Tensor]:
        return ref.make_inputs(shape, dtype, torch.Generator().manual_seed(seed), "cpu")

    first, again, other = inputs(11), inputs(11), inputs(12)
    assert all(torch.equal(first[k], again[k]) for k in first)
    assert any(not torch.equal(first[k], other[k]) for k in first)


@pytest.mark.parametrize("slug", SLUGS)
def test_call_args_are_harness_tensors_and_ints(slug: str, references: dict) -> None:
    ref, raw = references[slug], _raw(slug)
    shape = raw["tests"][1]["shape"]
    dtype = TORCH_DTYPES[raw["dtypes"][0]]
    inputs = ref.make_inputs(shape, dtype, torch.Generator().manual_seed(3), "cpu")
    outputs = ref.make_outputs(shape, dtype, "cpu")
    args = ref.call_args(inputs, outputs, shape)
    owned = {id(t) for t in [*inputs.values(), *outputs.values()]}
    for arg in args:
        assert (isinstance(arg, torch.Tensor) and id(arg) in owned) or type(arg) is int, arg
    assert {id(a) for a in args if isinstance(a, torch.Tensor)} == owned, "every tensor passed"
    params = inspect.signature(ref.make_inputs).parameters
    assert list(params) == ["shape", "dtype", "gen", "device"]


def test_softmax_inputs_overflow_without_max_subtraction(references: dict) -> None:
    ref = references["softmax"]
    for _, shape, dtype_name in _cases("softmax"):
        x = ref.make_inputs(
            shape, TORCH_DTYPES[dtype_name], torch.Generator().manual_seed(5), "cpu"
        )
        # Row 0 always sits near +100: exp() overflows float32 there (ln(FLT_MAX) ~ 88.7).
        assert bool(torch.isinf(torch.exp(x["x"][0].float())).any())


def test_histogram_inputs_repeat_values_within_one_block(references: dict) -> None:
    ref = references["histogram"]
    for _, shape, _ in _cases("histogram"):
        data = ref.make_inputs(shape, torch.int32, torch.Generator().manual_seed(9), "cpu")["data"]
        block = data[:64]  # any block of 64 or more elements has a repeated value
        if shape["n"] >= 64:
            assert block.unique().numel() < block.numel(), "the race solution must fail"
        assert int(data.min()) >= 0 and int(data.max()) < shape["num_bins"]


# --- correct Triton solutions compile for a real GPU target --------------------------------------

# The CPU path only interprets kernels; GPU-only failures (type errors in lowering, shared memory
# over budget) would first show on a GPU host. triton.compile for sm_90 needs ptxas (bundled with
# triton), not a GPU. Portability bound: RTX 4090 / L40S allow 99 KiB of shared memory per block.
SHARED_MEMORY_LIMIT_BYTES = 99 * 1024
GPU_KERNELS = [
    (
        "sum-reduction",
        "correct.py",
        "partial_sum_kernel",
        "x_ptr:P partial_ptr:P n:i32",
        {"BLOCK": 4096},
    ),
    (
        "sum-reduction",
        "correct.py",
        "final_sum_kernel",
        "partial_ptr:P out_ptr:P num_partials:i32",
        {"BLOCK": 1024},
    ),
    ("softmax", "correct.py", "softmax_kernel", "x_ptr:P out_ptr:P n_cols:i32", {"BLOCK": 4096}),
    (
        "softmax",
        "correct_online.py",
        "softmax_kernel",
        "x_ptr:P out_ptr:P n_cols:i32",
        {"BLOCK": 512},
    ),
    (
        "layernorm",
        "correct.py",
        "layernorm_kernel",
        "x_ptr:P w_ptr:P b_ptr:P out_ptr:P n_cols:i32 eps:fp32",
        {"BLOCK": 4096},
    ),
    (
        "matmul",
        "correct.py",
        "matmul_kernel",
        "a_ptr:P b_ptr:P c_ptr:P M:i32 N:i32 K:i32",
        {"BM": 64, "BN": 64, "BK": 32},
    ),
    (
        "transpose",
        "correct.py",
        "transpose_kernel",
        "x_ptr:P out_ptr:P rows:i32 cols:i32",
        {"BLOCK": 64},
    ),
    (
        "conv2d",
        "correct.py",
        "conv2d_kernel",
        "x_ptr:P w_ptr:P out_ptr:P H:i32 W:i32 R:i32",
        {"BH": 64, "BW": 64},
    ),
    (
        "histogram",
        "correct.py",
        "histogram_kernel",
        "data_ptr:*i32 hist_ptr:*i32 n:i32",
        {"BLOCK": 1024},
    ),
    (
        "histogram",
        "correct_private.py",
        "histogram_kernel",
        "data_ptr:*i32 hist_ptr:*i32 n:i32 num_bins:i32",
        {"BLOCK": 1024, "BINS": 4096},
    ),
    (
        "flash-attention",
        "correct.py",
        "attn_kernel",
        "q_ptr:P k_ptr:P v_ptr:P o_ptr:P seq:i32 sm_scale:fp32",
        {"CAUSAL": True, "D": 128, "BM": 64, "BN": 64},
    ),
]
# flash-attention's entry point picks BN = 32 for float32 tiles (twice the bytes).
FLOAT32_OVERRIDES = {("flash-attention", "BN"): 32}


def _gpu_cases() -> list[tuple]:
    cases = []
    for slug, fname, kernel, sig, constexprs in GPU_KERNELS:
        for dtype in _raw(slug)["dtypes"]:
            if dtype == "int32":
                dtype = "float32"  # the histogram signature names its int pointers itself
            cx = {
                k: FLOAT32_OVERRIDES.get((slug, k), v) if dtype == "float32" else v
                for k, v in constexprs.items()
            }
            cases.append((slug, fname, kernel, sig, cx, dtype))
    return cases


@pytest.mark.slow
@pytest.mark.parametrize("case", _gpu_cases(), ids=lambda c: f"{c[0]}/{c[1]}/{c[2]}/{c[5]}")
def test_correct_triton_solution_compiles_for_sm90(case: tuple, monkeypatch, tmp_path) -> None:
    import importlib.util

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    slug, fname, kernel, sig, constexprs, dtype = case
    monkeypatch.setenv("TRITON_INTERPRET", "0")  # @triton.jit must build a real JITFunction
    path = PROBLEMS_DIR / slug / "solutions" / "triton" / fname
    spec = importlib.util.spec_from_file_location(f"pdc_aot_{slug.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ptr = {"float32": "*fp32", "float16": "*fp16"}[dtype]
    signature = {name: (ptr if t == "P" else t) for name, t in (p.split(":") for p in sig.split())}
    signature.update({name: "constexpr" for name in constexprs})
    num_stages = 2 if slug == "flash-attention" else 3  # as its entry point launches it
    compiled = triton.compile(
        ASTSource(fn=getattr(module, kernel), signature=signature, constexprs=constexprs),
        target=GPUTarget("cuda", 90, 32),
        options={"num_stages": num_stages},
    )
    assert compiled.asm["cubin"], "no machine code"
    assert compiled.metadata.shared <= SHARED_MEMORY_LIMIT_BYTES, compiled.metadata.shared


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(CUDA_SLUGS))
def test_cuda_starter_compiles_through_the_runner(slug: str) -> None:
    """starter.cu is what students download first: it must compile (real nvcc, in the sandbox)."""
    from gradinglab.runner import grade

    source = (PROBLEMS_DIR / slug / "starter.cu").read_text(encoding="utf-8")
    doc = grade(slug=slug, source=source, backend="cuda", device="cpu")
    assert doc["status"] == "needs_gpu", (doc["status"], doc["message"])
    assert doc["compile"]["ok"] and doc["score"] is None
