"""The crash rig's MiniApp: the instance calls no bundled app publishes (tests only).

Notes reaches ``runtime.api.save_instance_state`` and ``read_instance_state``; no bundled app's
tool opens an instance with ``open_instance`` or closes one with the Agent's ``close_instance``.
So that a real process can be killed inside those decisions too, the crash-point harness
(``tests/reliability/crashpoints.py``, kinds ``open_instance`` and ``close_by_agent``) starts its
processes with ``LINEUP_CRASH_APP=1``, which installs this app (``lineup/settings.py``). Its tools:

* ``crashpad.open {text}``: a new instance, in the background, with ``{"text"}`` as revision 1;
* ``crashpad.close {}``: closes the open one the person focused last (the Runtime's receipt).
"""
