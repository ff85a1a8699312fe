"""The sandbox's seccomp program (seccomp.py), run through a small classic-BPF interpreter for
every architecture it judges: what the kernel would return for each system call. The real
filter in a real sandbox is tested in test_sandbox.py (x86-64 only, this host's)."""

from __future__ import annotations

import struct

import pytest

from gradinglab.runner import seccomp as sc

X86, I386, ARM = sc.ARCH_X86_64, sc.ARCH_I386, sc.ARCH_AARCH64


def run_filter(arch: int, nr: int, arg1: int = 0, arg0: int = 0) -> int:
    """What the program returns for this call (seccomp_data: nr, arch, ip, args)."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, arg0, arg1, 0, 0, 0, 0)
    prog, pc, acc = sc.program(), 0, 0
    while True:
        code, jt, jf, k = prog[pc]
        pc += 1
        if code == sc.LD_W_ABS:
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == sc.RSH_K:
            acc >>= k
        elif code == sc.AND_K:
            acc &= k
        elif code in (sc.JEQ_K, sc.JGE_K):
            taken = acc == k if code == sc.JEQ_K else acc >= k
            pc += jt if taken else jf
        elif code == sc.RET_K:
            return k
        else:
            raise AssertionError(f"opcode {code:#x} not interpreted")


def errno(ret: int) -> int | None:
    return ret & 0xFFFF if ret & 0xFFFF0000 == sc.RET_ERRNO else None


@pytest.mark.parametrize("arch", [X86, I386, ARM])
def test_each_architecture_refuses_fallocate_io_uring_and_xfs_ioctls(arch: int) -> None:
    calls = sc.CALLS[arch]
    assert errno(run_filter(arch, calls["fallocate"])) == sc.EOPNOTSUPP
    for nr in calls["io_uring"]:
        assert errno(run_filter(arch, nr)) == sc.ENOSYS
    xfs_resvsp64 = 0x4030582A
    assert errno(run_filter(arch, calls["ioctl"], xfs_resvsp64)) == sc.EPERM


@pytest.mark.parametrize("arch", [X86, I386, ARM])
def test_each_architecture_lets_everything_else_through(arch: int) -> None:
    calls = sc.CALLS[arch]
    refused = {calls["fallocate"], *calls["io_uring"], sc.NAMESPACE_CALLS[arch]["clone3"]}
    for nr in range(0, 460):
        if nr not in refused and nr != calls["ioctl"]:
            assert run_filter(arch, nr, arg0=~sc.CLONE_NEWUSER & 0xFFFFFFFF) == sc.RET_ALLOW, nr
    nvidia_ioctl, tcgets = 0xC020462A, 0x5401  # type 'F' (the NVIDIA driver's), a terminal's
    for cmd in (nvidia_ioctl, tcgets):
        assert run_filter(arch, calls["ioctl"], cmd) == sc.RET_ALLOW


@pytest.mark.parametrize("arch", [X86, I386, ARM])
def test_each_architecture_refuses_a_new_user_namespace(arch: int) -> None:
    """unshare and clone with CLONE_NEWUSER (EPERM), in the low or high flags word's company;
    clone3 whole (ENOSYS: its flags are in memory the filter cannot read; glibc then uses clone).
    A thread's or a fork's clone, and an unshare of anything else, go through."""
    spaces = sc.NAMESPACE_CALLS[arch]
    thread = 0x3D0F00  # glibc's pthread_create: CLONE_VM | CLONE_FS | CLONE_FILES | ... | SETTLS
    for nr in (spaces["unshare"], spaces["clone"]):
        for flags in (
            sc.CLONE_NEWUSER,
            sc.CLONE_NEWUSER | 0x20020000,
            (1 << 32) | sc.CLONE_NEWUSER,
        ):
            assert errno(run_filter(arch, nr, arg0=flags)) == sc.EPERM, (nr, hex(flags))
        for flags in (0, thread, 0x20000, 1 << 32):
            assert run_filter(arch, nr, arg0=flags) == sc.RET_ALLOW, (nr, hex(flags))
    assert errno(run_filter(arch, spaces["clone3"])) == sc.ENOSYS


def test_x32_and_every_unjudged_convention_are_refused() -> None:
    assert errno(run_filter(X86, sc.X32_BIT | sc.CALLS[X86]["fallocate"])) == sc.ENOSYS
    assert errno(run_filter(X86, sc.X32_BIT | 0)) == sc.ENOSYS  # x32's read: no x32 at all
    arm32, riscv64 = 0x40000028, 0xC00000F3  # AArch32 on an AArch64 host; another host
    for arch in (arm32, riscv64):
        for nr in (0, 3, 47, 352):  # 352: AArch32's fallocate
            assert errno(run_filter(arch, nr)) == sc.ENOSYS


def test_every_jump_is_forward_and_fits_a_byte() -> None:
    prog = sc.program()
    for pc, (code, jt, jf, _k) in enumerate(prog):
        if code in (sc.JEQ_K, sc.JGE_K):
            for off in (jt, jf):
                assert 0 <= off < 256 and pc + 1 + off < len(prog)
    assert prog[-1][0] == sc.RET_K  # no path runs off the end
    assert sc.program_bytes() == b"".join(struct.pack("=HBBI", *i) for i in prog)
    assert len(sc.program_bytes()) == 8 * len(prog)
