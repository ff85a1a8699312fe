"""Static pre-check of a submission's source before it is stored and queued (issue 11).

Two layers, both run on every submission (one place: `services.submissions.submission_create`):

1. Our rules, each finding with the line it is on, told to the student:
   - a Triton submission must define a `@triton.jit` kernel and launch it (`kernel[grid](...)`);
     a CUDA one must define a `__global__` kernel and launch it (`<<<...>>>`);
   - `torch_compute`: torch doing the work (torch.* compute, torch.nn.functional, `@`, tensor
     compute methods in the launcher; cuBLAS/cuDNN in CUDA) where the statement asks for a kernel;
   - `streams`: extra streams; `cuda_graphs`: CUDA graph capture/replay;
   - `timers`: timer names (Event.elapsed_time, perf_counter, cudaEventElapsedTime, clock64 ...);
   - `escapes`: ctypes/os/subprocess/threading..., eval/exec/open, frame and global tampering,
     patching module attributes; in CUDA dlopen/system/fork/threads/static constructors;
   - `l2_persistence`: access-policy windows / persisting-L2 limits (CUDA).
   Each rule is `refuse`, `flag` (queued, flagged for TA review) or `allow` per problem
   (`precheck:` in problem.yaml; a missing rule is `refuse`).
2. KernelGuard (PyPI `kernelguard`, pinned): "hacked" -> the `kernelguard` rule's action,
   "suspicious" -> flag. It names rules, not lines.

Fail closed: if a checker itself fails (KernelGuard missing or raising, the package unreadable),
the submission is refused with a message saying so; it is never queued unchecked.
The rules are a first line, not the defence: the trusted measurement and the web re-check hold
whatever slips through (a regex cannot see every spelling).
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from gradinglab.runner.yamlkeys import load_unique

ACTIONS = ("refuse", "flag", "allow")
RULES = (
    "torch_compute",
    "streams",
    "cuda_graphs",
    "timers",
    "escapes",
    "l2_persistence",
    "kernelguard",
)
MAX_FINDINGS_SHOWN = 8


class CheckerFailed(RuntimeError):
    """The pre-check could not run: the caller refuses the submission (fail closed)."""


@dataclass(frozen=True)
class Finding:
    # One of RULES (the policy's action), "no_kernel" / "syntax" (always refused) or
    # "kernelguard-suspicious" (always flagged): check() sorts them so.
    rule: str
    line: int | None
    what: str  # translated description

    def describe(self) -> str:
        if self.line is None:
            return self.what
        return _("第 %(line)d 行：%(what)s") % {"line": self.line, "what": self.what}


@dataclass(frozen=True)
class Verdict:
    refused: list[Finding]
    flagged: list[Finding]

    def refusal_message(self) -> str:
        lines = [f.describe() for f in self.refused[:MAX_FINDINGS_SHOWN]]
        return _("代码未通过提交前检查，没有排队评测：") + "\n" + "\n".join(lines)

    def flag_reason(self) -> str:
        return ("precheck: " + "; ".join(f.describe() for f in self.flagged))[:300]


# --- policy ----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _policy_cached(path: str, mtime: float) -> dict[str, str]:
    # A rule written twice is refused (DuplicateKeyError, a YAMLError), as load_problem does.
    data = load_unique(Path(path).read_text(encoding="utf-8")) or {}
    raw = data.get("precheck") or {}
    if not isinstance(raw, dict):
        raise CheckerFailed(f"precheck in {path} must be a mapping")
    policy = dict.fromkeys(RULES, "refuse")
    for rule, action in raw.items():
        if rule not in RULES or action not in ACTIONS:
            raise CheckerFailed(f"precheck in {path}: bad rule or action {rule!r}: {action!r}")
        policy[rule] = action
    return policy


def policy_for(slug: str) -> dict[str, str]:
    """The problem's `precheck:` policy from its package on disk (each rule refuse/flag/allow)."""
    from gradinglab.runner.problems import problems_dir

    path = problems_dir() / slug / "problem.yaml"
    try:
        return _policy_cached(str(path), path.stat().st_mtime)
    except (OSError, yaml.YAMLError) as exc:
        raise CheckerFailed(f"cannot read the policy of {slug!r}: {exc}") from exc


# --- Triton (Python) -------------------------------------------------------------------------

# torch.* calls that only allocate or describe tensors (everything else under torch computes).
TORCH_ALLOWED = {
    "empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full",
    "full_like", "tensor", "as_tensor", "device", "Size", "Generator", "is_tensor", "finfo",
    "iinfo", "no_grad", "inference_mode", "set_grad_enabled", "get_default_dtype",
    "promote_types", "result_type", "broadcast_shapes", "dtype", "cdiv",
}  # fmt: skip
TORCH_CUDA_ALLOWED = {
    "is_available", "current_device", "device_count", "get_device_name", "get_device_properties",
    "get_device_capability", "synchronize", "current_stream", "default_stream", "set_device",
    "device",
}  # fmt: skip
# Tensor methods that do the problem's work (in the launcher, outside any @triton.jit function).
TENSOR_COMPUTE = {
    "sum", "mean", "softmax", "log_softmax", "matmul", "mm", "bmm", "addmm", "exp", "cumsum",
    "add", "add_", "mul", "mul_", "sub", "sub_", "div", "div_", "max", "min", "amax", "amin",
    "norm", "var", "std", "layer_norm", "conv2d", "histc", "bincount", "copy_", "t", "transpose",
    "permute", "clone", "flip", "sort", "topk", "einsum", "dot", "scatter_add_", "index_add_",
}  # fmt: skip
STREAM_NAMES = {"Stream", "stream", "ExternalStream", "StreamContext"}
GRAPH_NAMES = {"CUDAGraph", "graph", "make_graphed_callables", "graphs"}
TIMER_NAMES = {
    "elapsed_time", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns",
    "process_time", "process_time_ns", "time_ns", "thread_time", "Event", "do_bench",
}  # fmt: skip
ESCAPE_MODULES = {
    "ctypes", "os", "subprocess", "sys", "importlib", "builtins", "gc", "inspect", "threading",
    "_thread", "multiprocessing", "concurrent", "signal", "socket", "pickle", "marshal", "mmap",
    "shutil", "pathlib", "io", "tempfile", "atexit", "faulthandler", "pty", "fcntl", "resource",
    "cffi", "gradinglab", "asyncio", "sched", "posix", "code", "codeop", "runpy", "zipimport",
}  # fmt: skip
ESCAPE_CALLS = {"__import__", "eval", "exec", "compile", "open", "globals", "setattr", "delattr",
                "vars", "breakpoint", "input"}  # fmt: skip
ESCAPE_ATTRS = {
    "__globals__", "__code__", "__builtins__", "__subclasses__", "__dict__", "__class__",
    "__bases__", "__mro__", "f_back", "f_globals", "f_locals", "_getframe", "__closure__",
    "__defaults__", "__kwdefaults__", "gi_frame", "tb_frame",
}  # fmt: skip
PATCHED_ROOTS = {"torch", "triton", "time", "math", "builtins"}
# Tensor methods that re-point or expose storage: outputs must live in the harness's buffers.
STORAGE_METHODS = {"set_", "resize_", "as_strided_", "untyped_storage", "storage", "data_ptr",
                   "share_memory_", "_set_storage"}  # fmt: skip


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.value if not isinstance(node, ast.Call) else node.func
    return node.id if isinstance(node, ast.Name) else None


def _dotted(node: ast.AST) -> list[str]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts[::-1]


@dataclass
class _Aliases:
    torch: set[str]
    functional: set[str]
    triton: set[str]  # names bound to triton / triton.language modules
    jit: set[str]  # names bound to triton.jit itself


def _aliases(tree: ast.Module) -> _Aliases:
    al = _Aliases(torch={"torch"}, functional=set(), triton={"triton", "tl"}, jit=set())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                bound = a.asname or a.name.split(".")[0]
                if a.name == "torch.nn.functional" and a.asname:
                    al.functional.add(a.asname)
                elif a.name.split(".")[0] == "torch":
                    al.torch.add(bound)
                elif a.name.split(".")[0] == "triton":
                    al.triton.add(bound)
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                bound = a.asname or a.name
                if node.module in ("torch.nn", "torch") and a.name in ("functional", "nn"):
                    al.functional.add(bound) if a.name == "functional" else al.torch.add(bound)
                elif node.module == "triton" and a.name == "jit":
                    al.jit.add(bound)
                elif node.module.split(".")[0] == "triton":
                    al.triton.add(bound)
    return al


def _is_jit(decorator: ast.expr, al: _Aliases) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    parts = _dotted(target)
    return (len(parts) == 2 and parts[0] in al.triton and parts[1] == "jit") or (
        len(parts) == 1 and parts[0] in al.jit
    )


class _TritonVisitor(ast.NodeVisitor):
    def __init__(self, al: _Aliases) -> None:
        self.al = al
        self.findings: list[Finding] = []
        self.kernels: set[str] = set()
        self.launched = False
        self._in_kernel = 0

    def add(self, rule: str, node: ast.AST, what: str) -> None:
        self.findings.append(Finding(rule, getattr(node, "lineno", None), what))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        jit = any(_is_jit(d, self.al) for d in node.decorator_list)
        if jit:
            self.kernels.add(node.name)
        self._in_kernel += jit
        self.generic_visit(node)
        self._in_kernel -= jit

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name.split(".")[0] in ESCAPE_MODULES:
                self.add("escapes", node, _("导入了 %(m)s") % {"m": a.name})

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = (node.module or "").split(".")[0]
        if module in ESCAPE_MODULES or node.level:
            self.add("escapes", node, _("导入了 %(m)s") % {"m": node.module or "."})
        for a in node.names:
            if a.name in TIMER_NAMES:
                self.add("timers", node, _("使用了计时器 %(n)s") % {"n": a.name})

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Subscript):
            name = _dotted(func.value)
            if name and name[-1] in self.kernels:
                self.launched = True
        if isinstance(func, ast.Name) and func.id in ESCAPE_CALLS:
            self.add("escapes", node, _("调用了 %(n)s()") % {"n": func.id})
        if not self._in_kernel:
            self._torch_call(node)
            if isinstance(func, ast.Attribute) and func.attr in STORAGE_METHODS:
                self.add("escapes", node, _("改动或读取张量的存储：.%(n)s()") % {"n": func.attr})
        self.generic_visit(node)

    def _torch_call(self, node: ast.Call) -> None:
        parts = _dotted(node.func)
        if not parts:
            return
        if parts[0] in self.al.functional or parts[:3] == [parts[0], "nn", "functional"]:
            if parts[0] in self.al.torch | self.al.functional:
                self.add(
                    "torch_compute", node, _("用 PyTorch 计算：%(n)s") % {"n": ".".join(parts)}
                )
                return
        if parts[0] in self.al.torch and len(parts) >= 2:
            if parts[1] == "cuda":
                return  # streams, graphs and events are their own rules (visit_Attribute)
            if parts[1] not in TORCH_ALLOWED and not parts[1][:1].isupper():
                self.add(
                    "torch_compute", node, _("用 PyTorch 计算：%(n)s") % {"n": ".".join(parts)}
                )
            return
        root = parts[0]
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr in TENSOR_COMPUTE
            and root not in self.al.triton
            and root not in ("math", "builtins", "self")
        ):
            self.add("torch_compute", node, _("用张量方法计算：.%(n)s()") % {"n": node.func.attr})

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.MatMult) and not self._in_kernel:
            self.add("torch_compute", node, _("用 @ 做矩阵乘法"))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        parts = _dotted(node)
        cuda = len(parts) >= 3 and parts[0] in self.al.torch and parts[1] == "cuda"
        if cuda and parts[2] in STREAM_NAMES:
            self.add("streams", node, _("创建或切换 CUDA 流：%(n)s") % {"n": ".".join(parts)})
        elif cuda and parts[2] in GRAPH_NAMES:
            self.add("cuda_graphs", node, _("使用 CUDA Graph：%(n)s") % {"n": ".".join(parts)})
        elif node.attr in TIMER_NAMES:
            self.add("timers", node, _("使用了计时器 %(n)s") % {"n": node.attr})
        elif node.attr in ESCAPE_ATTRS:
            self.add("escapes", node, _("访问了解释器内部：%(n)s") % {"n": node.attr})
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in TIMER_NAMES:
            self.add("timers", node, _("使用了计时器 %(n)s") % {"n": node.id})
        elif node.id in ("__builtins__", "__loader__", "__spec__"):
            self.add("escapes", node, _("访问了解释器内部：%(n)s") % {"n": node.id})

    def _patches(self, targets: list[ast.expr], node: ast.AST) -> None:
        for target in targets:
            if isinstance(target, ast.Attribute) and _root(target) in (
                PATCHED_ROOTS | self.al.torch | self.al.triton
            ):
                self.add(
                    "escapes",
                    node,
                    _("改写了模块属性：%(n)s") % {"n": ".".join(_dotted(target))},
                )

    def visit_Assign(self, node: ast.Assign) -> None:
        self._patches(node.targets, node)
        # `compiled = kernel.warmup(...)` then `compiled[grid](...)` launches that kernel (the
        # official fused-softmax tutorial sizes its grid this way).
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            owner = _dotted(value.func.value)
            if value.func.attr == "warmup" and owner and owner[-1] in self.kernels:
                self.kernels.update(t.id for t in node.targets if isinstance(t, ast.Name))
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._patches([node.target], node)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.generic_visit(node)


def check_triton(source: str) -> list[Finding]:
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        # The compiler's own words (English), quoted as its, not run into a sentence of ours.
        what = _("Python 编译器报告语法错误：“%(m)s”") % {"m": exc.msg}
        return [Finding("syntax", exc.lineno, what)]
    visitor = _TritonVisitor(_aliases(tree))
    visitor.visit(tree)
    findings = visitor.findings
    if not visitor.kernels:
        findings.append(Finding("no_kernel", None, _("没有 @triton.jit 内核：提交必须自己写内核")))
    elif not visitor.launched:
        names = ", ".join(sorted(visitor.kernels))
        findings.append(
            Finding(
                "no_kernel",
                None,
                _("定义了内核 %(k)s 但从未启动（kernel[grid](...)）") % {"k": names},
            )
        )
    return findings


# --- CUDA (C++) ------------------------------------------------------------------------------

_CUDA_RULES: list[tuple[str, re.Pattern[str], str]] = [
    ("streams", re.compile(r"\bcudaStreamCreate\w*|\bcudaStreamBeginCapture\b"), "stream"),
    ("cuda_graphs", re.compile(r"\bcudaGraph\w*|\bcudaStreamBeginCapture\b"), "graph"),
    (
        "timers",
        re.compile(
            r"\bcudaEvent(Create|Record|ElapsedTime|Synchronize)\w*|\bclock(64)?\s*\(|"
            r"\bgettimeofday\b|\bclock_gettime\b|\bstd::chrono\b|%globaltimer|\brdtsc\b"
        ),
        "timer",
    ),
    (
        "escapes",
        re.compile(
            r"\bdlopen\b|\bdlsym\b|\bsystem\s*\(|\bpopen\b|\bfork\s*\(|\bvfork\b|\bexec[lv]p?e?\s*\(|"
            r"\bsyscall\s*\(|\bpthread_create\b|\bstd::thread\b|\bstd::async\b|\bfopen\b|"
            r"\bopen\s*\(|\bmmap\s*\(|\bptrace\b|\bsignal\s*\(|__attribute__\s*\(\(\s*constructor|"
            r"#\s*include\s*[<\"](dlfcn|unistd|fstream|thread|sys/\w+|pthread|signal|spawn)"
        ),
        "escape",
    ),
    (
        "l2_persistence",
        re.compile(r"\bcudaStreamSetAttribute\b|accessPolicyWindow|cudaLimitPersistingL2CacheSize"),
        "l2",
    ),
    ("torch_compute", re.compile(r"\bcublas\w*|\bcudnn\w*|\bcutlass::|\bthrust::|\bcub::"), "lib"),
]
_CUDA_WHAT = {
    "stream": gettext_noop("创建或使用额外的 CUDA 流：%(t)s"),
    "graph": gettext_noop("使用 CUDA Graph：%(t)s"),
    "timer": gettext_noop("使用了计时器：%(t)s"),
    "escape": gettext_noop("越出内核的系统调用或库：%(t)s"),
    "l2": gettext_noop("设置 L2 持久化：%(t)s"),
    "lib": gettext_noop("调用库代替自己写内核：%(t)s"),
}


def _strip_cpp(source: str) -> str:
    """Comments and string literals blanked out, newlines kept (so offsets map to lines)."""

    def blank(match: re.Match[str]) -> str:
        text = match.group(0)
        if text.startswith("#"):
            return text
        return re.sub(r"[^\n]", " ", text)

    pattern = r"#\s*include[^\n]*|//[^\n]*|/\*.*?\*/|\"(\\.|[^\"\\\n])*\"|'(\\.|[^'\\\n])*'"
    return re.sub(pattern, blank, source, flags=re.S)


def check_cuda(source: str) -> list[Finding]:
    text = _strip_cpp(source)
    findings = []
    for rule, pattern, kind in _CUDA_RULES:
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            findings.append(Finding(rule, line, _(_CUDA_WHAT[kind]) % {"t": match.group(0)[:60]}))
    if not re.search(r"\b__global__\b", text):
        findings.append(Finding("no_kernel", None, _("没有 __global__ 内核：提交必须自己写内核")))
    elif "<<<" not in text and not re.search(r"\bcudaLaunch(Kernel|CooperativeKernel)\w*", text):
        findings.append(
            Finding("no_kernel", None, _("定义了 __global__ 内核但从未启动（<<<...>>>）"))
        )
    return findings


# --- KernelGuard -----------------------------------------------------------------------------


def check_kernelguard(source: str) -> list[Finding]:
    """KernelGuard's verdict as findings: hacked -> rule `kernelguard`; suspicious -> flagged."""
    try:
        import kernelguard

        result = kernelguard.analyze_code(source, compute_structural_hash=False)
    except Exception as exc:  # fail closed: a checker that cannot run refuses
        raise CheckerFailed(f"KernelGuard failed: {exc!r}"[:300]) from exc
    classification = result.get("classification")
    patterns = sorted({str(m.get("pattern")) for m in result.get("matched_patterns") or []})
    if classification == "hacked":
        what = _("KernelGuard 判定为作弊模式：%(p)s") % {"p": ", ".join(patterns)}
        return [Finding("kernelguard", None, what)]
    if classification == "suspicious":
        what = _("KernelGuard 认为可疑：%(p)s") % {"p": ", ".join(patterns)}
        return [Finding("kernelguard-suspicious", None, what)]
    return []


# KernelGuard's time grows with the square of a line's length: one comment line of 40 000
# characters took 44 s, a 256 KiB one half an hour, holding the web worker (the submit page hung).
# No kernel's line comes near this; such a line is refused before KernelGuard reads it.
MAX_LINE_CHARS = 2000


def _long_line(source: str) -> list[Finding]:
    for number, line in enumerate(source.splitlines(), start=1):
        if len(line) > MAX_LINE_CHARS:
            what = _("这一行超过 %(max)d 个字符；请拆成几行再提交") % {"max": MAX_LINE_CHARS}
            return [Finding("long_line", number, what)]
    return []


# --- entry point -----------------------------------------------------------------------------


def check(source: str, backend: str, policy: dict[str, str]) -> Verdict:
    """Run every check; split findings by the policy. Raises CheckerFailed (caller refuses)."""
    try:
        findings = check_triton(source) if backend == "triton" else check_cuda(source)
    except RecursionError as exc:  # a pathological nesting depth: refuse, do not crash
        raise CheckerFailed("the source is nested too deeply to check") from exc
    findings += _long_line(source) or check_kernelguard(source)
    refused, flagged = [], []
    for finding in findings:
        if finding.rule in ("no_kernel", "syntax", "long_line"):
            refused.append(finding)
        elif finding.rule == "kernelguard-suspicious":
            flagged.append(finding)
        else:
            action = policy.get(finding.rule, "refuse")
            (refused if action == "refuse" else flagged if action == "flag" else []).append(finding)
    return Verdict(refused=_dedupe(refused), flagged=_dedupe(flagged))


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in findings:
        key = (f.rule, f.line, f.what)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return sorted(out, key=lambda f: (f.line or 0, f.rule))
