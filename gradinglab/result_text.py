"""The grader's messages in the page's language.

The runner (Django-free) writes every message in English and, beside it, the message ids and
arguments it was built from (``gradinglab/runner/messages.py``). This module is the web side of
that: one translation per id, with exactly the fields of the English template. A message is
translated only when its parts are well formed and spell exactly the English text the document
carries; otherwise, and for any part that is plain text (a traceback, a compiler error), the
English is shown, marked ``lang="en"``. Arguments are shown as they are, escaped.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.functional import Promise
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from gradinglab.runner.messages import Msg, english, from_wire

SAID: dict[str, Promise] = {
    "all_passed": _("全部 {n} 个测试通过"),
    "all_passed_cpu": _("全部 {n} 个测试通过（CPU 路径：只检查正确性）"),
    "refused_not_text": _("提交的内容必须是文本"),
    "refused_too_large": _("提交的内容超过 {kib} KiB"),
    "refused_nul": _("提交的内容含有 NUL 字节"),
    "refused_empty": _("提交的内容为空"),
    "sandbox_start": _("沙箱无法启动：{error}"),
    "internal_error": _("评测程序内部错误：{error}"),
    "cuda_needs_gpu": _("已编译；运行 CUDA 代码需要 GPU 评测机（这不算通过）"),
    "protocol_before_seal": _("你的代码运行之前，评测框架的通信协议出错：{detail}"),
    "protocol_after_seal": _(
        "你的程序写入了评测程序的状态通道或破坏了它的协议（{detail}）；这次运行计入提交次数"
    ),
    "checking_failed": _(
        "评测程序无法检查你的程序写出的内容（{error}）；这次运行计入提交次数，助教会复查"
    ),
    "harness_phase_failure": _("评测程序在 {phase} 阶段出错：{detail}"),
    "cap_before_seal": _(
        "加载你的代码之前，这次评测就达到了某项限制（时间、内存、输出或磁盘）：这是评测程序的故障，不是你的代码的问题"
    ),
    "harness_died": _(
        "评测框架在加载你的代码之前停止了（prepare 阶段，退出码 {code}，信号 {signal}）"
    ),
    "timeout_wall": _("超出时间限制：作业运行超过 {seconds} 秒（墙钟时间）"),
    "timeout_cpu": _("超出时间限制：CPU 时间超过 {seconds} 秒"),
    "output_limit": _("超出输出限制：打印超过 {kib} KiB；作业已被停止"),
    "disk_limit": _("超出磁盘限制：作业目录超出输入所需 {mib} MiB 以上，或文件过多；作业已被停止"),
    "memory_limit": _("超出内存限制（{mib} MiB）"),
    "memory_limit_because": _("超出内存限制（{mib} MiB）："),
    "crashed": _("提交的程序崩溃：{signal}"),
    "exited_early": _("提交的程序在完成之前退出（退出码 {code}）"),
    "outputs_unreadable": _("输出无法作为普通张量读回：{detail}"),
    "test_failed": _("测试 {name}："),
    "no_outputs": _("没有返回任何输出"),
    "hint_returned_value": _("（你的函数返回了一个值：请把结果原地写入输出张量）"),
    "hint_repointed": _(
        "（你的代码把 {output} 重新指向了别的内存，例如用了 set_()：请写入给你的那个张量）"
    ),
    "output_not_tensor": _("输出 {output} 是 {kind}，应为普通的 torch.Tensor"),
    "output_shape": _("输出 {output} 的形状是 {got}，应为 {expected}"),
    "output_dtype": _("输出 {output} 的 dtype 是 {got}，应为 {expected}"),
    "output_device": _("输出 {output} 在 {got} 上，应在 {expected} 上"),
    "elements_differ": _(
        "{output}：{numel} 个元素中有 {mismatches} 个不一致；第一个在下标 {index}："
        "得到 {got}，应为 {expected}（atol {atol}，rtol {rtol}）"
    ),
    "elements_differ_nan": _(
        "{output}：{numel} 个元素中有 {mismatches} 个不一致；第一个在下标 {index}："
        "得到 {got}，应为 {expected}（得到 NaN：这个元素从未被写入？）（atol {atol}，rtol {rtol}）"
    ),
    "input_wrong_form": _("输入 {input} 返回时形式变了"),
    "input_modified": _("输入 {input} 被提交的代码修改了（输入是只读的）"),
    "timed_wrong_result": _("计时调用中结果错误（{bench}，{dtype}）："),
    "timed_snapshot_missing": _("一次计时调用的快照缺失"),
    "timed_call": _("第 {i} 次计时调用："),
    "snapshot_missing": _("快照缺失"),
    "sampled_output_form": _("输出 {key} 返回时形式不对"),
    "sampled_input_form": _("输入 {key} 返回时形式不对"),
    "sampled_differ": _("{output}：{numel} 个元素中有 {mismatches} 个不一致"),
    "sum_differs": _(
        "{output}：全部 {numel} 个元素的加权和偏差 {off}（允许 {allowed}）：抽查之外的元素有错"
    ),
    "sums_spread": _(
        "{output}：{terms} 个按块加权和的偏差是容差内误差的 {ratio} 倍（均方根；容差内不超过 {limit}）：抽查之外的元素超出容差"
    ),
    "bench_output_form": _("基准测试的输出 {output} 返回时形式不对"),
    "timed_unreadable": _("计时调用的输出无法读回：{detail}"),
    "bench_unreadable": _("基准测试的输出无法作为普通张量读回：{detail}"),
    "bench_set_wrong": _("计时调用中结果错误（{bench}，第 {k} 组输入）："),
    "during_timed_calls": _("计时调用中："),
    "no_measurements": _("计时循环没有返回任何测量值"),
    "below_floor": _("测得的时间比硬件允许的还快（{median} ms < 下限 {floor} ms）；助教会查看。"),
    "out_of_memory_job": _("内存不足（作业的内存限制）"),
    "out_of_memory": _("内存不足：{detail}"),
    "grader_failed_after_load": _("加载你的代码之后评测程序出错：{error}"),
    "syntax_error": _("submission.py 第 {line} 行：{error}\n{text}"),
    "syntax_error_at": _("submission.py 第 {line} 行第 {column} 列：{error}\n{text}"),
    "import_error": _("导入你的模块时出错：\n{traceback}"),
    "no_entry": _("你的模块没有定义名为 {name} 的函数"),
    "needs_gpu": _(
        "这段代码需要 GPU（CPU 路径在 CPU 张量上运行 Triton 解释器；"
        '请使用输入张量所在的设备，而不是 "cuda"）：{reason}'
    ),
    "out_of_bounds": _(
        "核函数 '{kernel}' 中越界的 {op}：{count} 个元素不在任何张量参数之内"
        "（第一个在地址 {address}，元素 {nbytes} 字节）；请给这次访问加上掩码"
    ),
    "out_of_bounds_one": _(
        "核函数 '{kernel}' 中越界的 {op}：1 个元素不在任何张量参数之内"
        "（地址 {address}，元素 {nbytes} 字节）；请给这次访问加上掩码"
    ),
    "device_assert_failed": _("核函数 '{kernel}' 中 tl.device_assert 失败：{detail}"),
    "during_timed_call": _("第 {i} 次计时调用中："),
    "during_warm_up": _("预热时："),
    "nvcc_timeout": _("nvcc 运行超过 {seconds} 秒"),
    "not_shared_object": _("无法读回编译出的库（不是共享库）"),
    "no_c_entry": _('没有以 C 链接导出的函数 {name}：请声明为 `extern "C"`（C++ 名字会被改编）'),
    "cannot_load_library": _("无法加载编译出的库：{error}"),
}

# Results stored before the runner wrote message ids: the two verdicts that were translated then.
_LEGACY = (
    (re.compile(r"^all (\d+) tests passed$"), "all_passed", ("n",)),
    (
        re.compile(r"^all (\d+) tests passed \(CPU path: correctness only\)$"),
        "all_passed_cpu",
        ("n",),
    ),
    (
        re.compile(
            r"^measured time is faster than the hardware allows "
            r"\(([0-9.]+) ms < floor ([0-9.]+) ms\); a TA will review it$"
        ),
        "below_floor",
        ("median", "floor"),
    ),
)


def _legacy_parts(message: str) -> list[dict[str, Any]] | None:
    for pattern, message_id, names in _LEGACY:
        if match := pattern.match(message):
            return [{"id": message_id, "args": dict(zip(names, match.groups(), strict=True))}]
    return None


def render(message: Any, parts: Any = None) -> SafeString | str:
    """``message`` (the English text) said in the active language, as safe HTML ("" if empty)."""
    message = str(message or "")
    if not message:
        return ""
    said = from_wire(message, parts if parts is not None else _legacy_parts(message), None)
    if not isinstance(said, Msg):
        return format_html('<span lang="en">{}</span>', message)
    return mark_safe("".join(_part(p) for p in said.parts))


def _part(part: dict[str, Any]) -> str:
    template = SAID.get(part["id"])  # every runner id has one (test_result_text); text has none
    if template is None:
        return format_html('<span lang="en">{}</span>', english(part))
    args = {k: escape(v) for k, v in part["args"].items()}
    return escape(str(template)).format(**args)
