"""A spare sandbox whose start began before WarmPool.shutdown() is never handed out after it.

The refill thread may be starting a spare when shutdown() runs; before, that spare joined the idle
list once ready, and the next job ran in a sandbox started under the old settings (the sandbox test
that swaps bwrap for /bin/false was graded "accepted" in such a race). A stand-in Sandbox class
lets the test hold a start open at a chosen moment; a real bwrap start cannot be paused there."""

from __future__ import annotations

import threading

from gradinglab.runner import pool

STARTS = 2  # seconds to wait for a thread step; generous for 2 loaded cores


class _Proc:
    def poll(self) -> None:
        return None  # alive


class _HeldSandbox:
    """Starts when `go` is set; records its generation of settings and whether it was killed."""

    go = threading.Event()
    started = threading.Event()
    made: list[_HeldSandbox] = []
    settings = "old"

    def __init__(self, **_kwargs) -> None:
        self.proc = _Proc()
        self.settings_at_start = type(self).settings
        self.killed = False
        type(self).made.append(self)

    def start(self) -> _HeldSandbox:
        type(self).started.set()
        assert type(self).go.wait(STARTS)
        return self

    def wait_ready(self) -> _HeldSandbox:
        return self

    def cleanup(self) -> None:
        self.killed = True


def test_a_spare_started_before_shutdown_is_not_handed_out(monkeypatch) -> None:
    for name, value in (("go", threading.Event()), ("started", threading.Event()), ("made", [])):
        monkeypatch.setattr(_HeldSandbox, name, value)
    monkeypatch.setattr(_HeldSandbox, "settings", "old")
    monkeypatch.setattr(pool, "Sandbox", _HeldSandbox)
    warm = pool.WarmPool(size=1, gpu_index=None)
    warm.refill_async()
    assert _HeldSandbox.started.wait(STARTS)  # the refill thread is inside start()
    warm.shutdown()
    _HeldSandbox.settings = "new"  # what the caller changed after shutdown
    _HeldSandbox.go.set()
    for _ in range(200):  # until the refill loop has put a spare in place (or given up)
        with warm._lock:
            if warm._idle and not warm._refilling:
                break
        threading.Event().wait(0.01)
    old = _HeldSandbox.made[0]
    assert old.settings_at_start == "old" and old.killed
    with warm._lock:
        assert [s.settings_at_start for s in warm._idle] == ["new"]
