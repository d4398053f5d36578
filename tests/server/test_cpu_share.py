"""Issue 29.7, second half: a page that floods its kernel slows its own page, not the class
(``tokens_edu/server/cpu.py``). Real processes, no server: a kernel that spins goes behind the
others (nice 15, every thread), a quiet one stays at the kernels' nice 5, and kernels get one
maths thread each. No time is asserted: whether a process was busy is read from the CPU time
the system counted for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from tokens_edu.server import cpu

SPIN = "import threading\nt = threading.Thread(target=lambda: [0 for _ in iter(int, 1)], daemon=True)\nt.start()\nwhile True: pass\n"
IDLE = "import time\ntime.sleep(600)\n"


def _thread_nices(pid: int) -> set[int]:
    return {os.getpriority(os.PRIO_PROCESS, int(t)) for t in os.listdir(f"/proc/{pid}/task")}


def test_a_flooding_kernel_goes_behind_the_quiet_ones():
    spin = subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True)
    idle = subprocess.Popen([sys.executable, "-c", IDLE], start_new_session=True)
    warm = subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True)
    try:
        share = cpu.CpuShare(busy_share=0.05)
        time.sleep(0.5)  # the spinner has started its second thread
        # every kernel goes below the server; the warm one (not a student's page) is not watched
        assert share.look([spin.pid, idle.pid, warm.pid], [spin.pid, idle.pid]) == []
        for pid in (spin.pid, idle.pid, warm.pid):
            assert _thread_nices(pid) == {cpu.KERNEL_NICE}, pid
        deadline = time.monotonic() + 60
        while spin.pid not in share.slowed:  # a spinner is busy in any window it gets
            assert time.monotonic() < deadline, "the spinning kernel was never seen busy"
            time.sleep(0.5)
            share.look([spin.pid, idle.pid, warm.pid], [spin.pid, idle.pid])
        assert _thread_nices(spin.pid) == {cpu.BUSY_NICE}  # both threads
        assert _thread_nices(idle.pid) == {cpu.KERNEL_NICE}
        assert _thread_nices(warm.pid) == {cpu.KERNEL_NICE}  # warming up is no flood
        assert cpu.cpu_seconds(spin.pid) > cpu.cpu_seconds(idle.pid)
    finally:
        for p in (spin, idle, warm):
            p.kill()
            p.wait()
    share.look([], [])  # gone kernels are forgotten
    assert not share.known and not share.slowed


def test_kernels_get_one_maths_thread_unless_the_teacher_says_otherwise():
    env = cpu.kernel_env({"OMP_NUM_THREADS": "4"})
    assert env["OMP_NUM_THREADS"] == "4" and env["OPENBLAS_NUM_THREADS"] == "1"
    assert all(env[name] for name in cpu.THREAD_VARS)
