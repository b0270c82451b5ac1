"""Run by Python at start-up in vLLM's engine core process (its folder is put on PYTHONPATH
while the engine starts): ask Linux to SIGKILL this process when the thread that started it ends
(``PR_SET_PDEATHSIG``), so a SIGKILLed command leaves no engine running. Any other process that
inherits the environment but has another parent is left alone. See ``serving.process_guard``."""

import os

_parent = os.environ.get("HIRING_ASSISTANT_ENGINE_PARENT", "")
if _parent.isdigit() and os.getppid() == int(_parent):
    import ctypes
    import signal

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != int(_parent):  # the parent died before the request took hold
        os._exit(1)
