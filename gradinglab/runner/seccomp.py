"""The sandbox's seccomp filter: the system calls that reserve disk space without writing it.

The job dir is a bind mount of the host's disk, capped by polling its size every
sandbox.JOB_DIR_POLL_S, so what a job can put there between two polls is bounded by how fast it
writes. `fallocate` is not: one call reserved 3 GiB in an instant (a review, with
FALLOC_FL_KEEP_SIZE, which RLIMIT_FSIZE does not limit), and plain fallocate reserves a whole
file of up to RLIMIT_FSIZE per call, any number of files. So fallocate fails with EOPNOTSUPP
(glibc's posix_fallocate then writes the zeros itself, at the speed the poll bounds); io_uring is
refused (ENOSYS), since its requests (IORING_OP_FALLOCATE among them) bypass a seccomp filter;
and so are the XFS ioctls (type 'X': XFS_IOC_RESVSP64 and the other preallocation calls) with
EPERM. Nothing the harness, Triton, nvcc or CUDA does uses them.

It also refuses new user namespaces (unshare or clone with CLONE_NEWUSER: EPERM; clone3, whose
flags a filter cannot read, with ENOSYS, so glibc falls back to clone): in one, a job was root
enough to mount a tmpfs of its own, RAM no CPU-path limit counts (test_sandbox_namespaces held
320 MiB of a 12 GiB one). bwrap's --disable-userns does this for an unprivileged parent only; a root
parent runs bwrap without a user namespace. Docker's default profile refuses the same calls.

The program is classic BPF, as bubblewrap's `--seccomp FD` loads it: a check of the calling
convention's architecture, then of the system call number (x86-64, i386 as a 64-bit process can
make its calls with `int 0x80`, and AArch64). Every call of any other convention fails with ENOSYS
(x32's, AArch32's on an AArch64 host): on a host of another architecture the sandbox cannot start,
which is the grader's infrastructure_error, loud, rather than a filter that judges nothing.

What it leaves (docs/result-schema.md, Limits): glibc's posix_fallocate falls back to reading and
writing each block, so on a descriptor opened write-only it fails (EBADF); and calls that copy in
the kernel (copy_file_range, MADV_POPULATE_WRITE on a mapped file) fill one file up to
RLIMIT_FSIZE two or three times faster than write() does, which the 0.25 s poll still bounds.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass

# linux/audit.h
ARCH_X86_64 = 0xC000003E
ARCH_I386 = 0x40000003
ARCH_AARCH64 = 0xC00000B7
X32_BIT = 0x40000000  # x86-64 system call numbers of the x32 convention

# Per architecture: fallocate, then io_uring_setup / _enter / _register, then ioctl; then the
# calls that make namespaces: unshare and clone (judged by their flags), clone3 (refused whole).
CALLS = {
    ARCH_X86_64: {"fallocate": 285, "io_uring": (425, 426, 427), "ioctl": 16},
    ARCH_I386: {"fallocate": 324, "io_uring": (425, 426, 427), "ioctl": 54},
    ARCH_AARCH64: {"fallocate": 47, "io_uring": (425, 426, 427), "ioctl": 29},
}
NAMESPACE_CALLS = {
    ARCH_X86_64: {"unshare": 272, "clone": 56, "clone3": 435},
    ARCH_I386: {"unshare": 310, "clone": 120, "clone3": 435},
    ARCH_AARCH64: {"unshare": 97, "clone": 220, "clone3": 435},
}
XFS_IOCTL_TYPE = ord("X")
CLONE_NEWUSER = 0x10000000  # linux/sched.h: in the flags, the first argument of unshare and clone

# linux/seccomp.h
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
EPERM, ENOSYS, EOPNOTSUPP = 1, 38, 95

# seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian)
NR_AT, ARCH_AT, ARG0_LOW_AT, ARG1_LOW_AT = 0, 4, 16, 24

# linux/filter.h opcodes
LD_W_ABS = 0x20
JEQ_K = 0x15
JGE_K = 0x35
RSH_K = 0x74
AND_K = 0x54
RET_K = 0x06


@dataclass(frozen=True)
class Insn:
    code: int
    k: int = 0
    jt: str | int = 0  # a label, or 0: the next instruction
    jf: str | int = 0


def _arch_block(name: str, arch: int, x32: bool) -> list[tuple[str | None, Insn]]:
    """Instructions labelled `name`: the system call number, judged for one architecture."""
    calls, spaces = CALLS[arch], NAMESPACE_CALLS[arch]
    block: list[tuple[str | None, Insn]] = [(name, Insn(LD_W_ABS, NR_AT))]
    if x32:
        block.append((None, Insn(JGE_K, X32_BIT, jt="enosys")))
    block.append((None, Insn(JEQ_K, calls["fallocate"], jt="eopnotsupp")))
    block += [(None, Insn(JEQ_K, nr, jt="enosys")) for nr in calls["io_uring"]]
    block.append((None, Insn(JEQ_K, spaces["clone3"], jt="enosys")))
    block.append((None, Insn(JEQ_K, spaces["unshare"], jt="flags")))
    block.append((None, Insn(JEQ_K, spaces["clone"], jt="flags")))
    block.append((None, Insn(JEQ_K, calls["ioctl"], jt="ioctl", jf="allow")))
    return block


def program() -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) instructions, jumps resolved."""
    labelled: list[tuple[str | None, Insn]] = [
        (None, Insn(LD_W_ABS, ARCH_AT)),
        (None, Insn(JEQ_K, ARCH_X86_64, jt="x86_64")),
        (None, Insn(JEQ_K, ARCH_I386, jt="i386")),
        (None, Insn(JEQ_K, ARCH_AARCH64, jt="aarch64", jf="enosys")),
        *_arch_block("x86_64", ARCH_X86_64, x32=True),
        *_arch_block("i386", ARCH_I386, x32=False),
        *_arch_block("aarch64", ARCH_AARCH64, x32=False),
        # unshare, clone: CLONE_NEWUSER among the flags (the low word of args[0])
        ("flags", Insn(LD_W_ABS, ARG0_LOW_AT)),
        (None, Insn(AND_K, CLONE_NEWUSER)),
        (None, Insn(JEQ_K, CLONE_NEWUSER, jt="eperm", jf="allow")),
        # ioctl: the type byte of the command (bits 8..15 of args[1]) is 'X', XFS's
        ("ioctl", Insn(LD_W_ABS, ARG1_LOW_AT)),
        (None, Insn(RSH_K, 8)),
        (None, Insn(AND_K, 0xFF)),
        (None, Insn(JEQ_K, XFS_IOCTL_TYPE, jt="eperm", jf="allow")),
        ("allow", Insn(RET_K, RET_ALLOW)),
        ("enosys", Insn(RET_K, RET_ERRNO | ENOSYS)),
        ("eopnotsupp", Insn(RET_K, RET_ERRNO | EOPNOTSUPP)),
        ("eperm", Insn(RET_K, RET_ERRNO | EPERM)),
    ]
    at = {label: i for i, (label, _) in enumerate(labelled) if label}
    out = []
    for i, (_, insn) in enumerate(labelled):

        def offset(target: str | int, i: int = i) -> int:
            return target if isinstance(target, int) else at[target] - i - 1

        out.append((insn.code, offset(insn.jt), offset(insn.jf), insn.k))
    return out


def program_bytes() -> bytes:
    """struct sock_filter[] as the kernel reads it: u16 code, u8 jt, u8 jf, u32 k."""
    return b"".join(struct.pack("=HBBI", *insn) for insn in program())


def filter_fd() -> int:
    """A file descriptor holding the program at offset 0, for `bwrap --seccomp FD` (it reads the
    fd to its end). The caller passes it to the child and closes its own copy."""
    fd = os.memfd_create("pdc-seccomp", os.MFD_CLOEXEC)
    try:
        data = program_bytes()
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd
