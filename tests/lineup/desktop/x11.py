"""What a window manager does to a window, done to the real X window under Xvfb (ctypes + libX11).

There is no window manager under Xvfb, so the test plays its part with the ICCCM messages a WM
sends or sets: the close button is a ``WM_PROTOCOLS`` / ``WM_DELETE_WINDOW`` client message;
minimising is setting ``WM_STATE`` to ``IconicState`` and (for a classic WM) unmapping the window;
restoring is ``NormalState`` and mapping it again. Qt's xcb plugin turns these into
``closeEvent`` and window-state changes, exactly as it does under GNOME or KDE. Finding the window
by its title uses ``xdotool``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

NORMAL_STATE = 1
ICONIC_STATE = 3
PROP_MODE_REPLACE = 0
CLIENT_MESSAGE = 33


class _ClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class _XEvent(ctypes.Union):
    _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]


class _XErrorEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("resourceid", ctypes.c_ulong),
        ("serial", ctypes.c_ulong),
        ("error_code", ctypes.c_ubyte),
        ("request_code", ctypes.c_ubyte),
        ("minor_code", ctypes.c_ubyte),
    ]


_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_XErrorEvent))


class XError(RuntimeError):
    """An X request failed (Xlib's default handler would print it and exit the test process)."""


def _libx11() -> ctypes.CDLL:
    lib = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    lib.XOpenDisplay.restype = ctypes.c_void_p
    lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    lib.XInternAtom.restype = ctypes.c_ulong
    lib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    lib.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(_XEvent)]
    lib.XChangeProperty.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ulong,
        ctypes.c_ulong,
        ctypes.c_ulong,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_void_p,
        ctypes.c_int,
    ]
    for name in ("XMapWindow", "XUnmapWindow"):
        getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    for name in ("XFlush", "XCloseDisplay"):
        getattr(lib, name).argtypes = [ctypes.c_void_p]
    lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.XSetErrorHandler.argtypes = [_ERROR_HANDLER]
    lib.XSetErrorHandler.restype = ctypes.c_void_p
    return lib


@contextmanager
def _display(name: str) -> Iterator[tuple[ctypes.CDLL, int]]:
    lib = _libx11()
    display = lib.XOpenDisplay(name.encode())
    if not display:
        raise RuntimeError(f"can not open X display {name}")
    errors: list[str] = []

    def record(_display: int, event: ctypes._Pointer) -> int:
        e = event.contents
        errors.append(f"X error {e.error_code} on request {e.request_code} for resource {e.resourceid:#x}")
        return 0

    handler = _ERROR_HANDLER(record)  # referenced until XCloseDisplay: Xlib keeps only the pointer
    previous = lib.XSetErrorHandler(handler)
    try:
        yield lib, display
        lib.XSync(display, False)  # the requests' errors arrive now, not at some later call
    finally:
        lib.XCloseDisplay(display)
        lib.XSetErrorHandler(ctypes.cast(previous, _ERROR_HANDLER) if previous else _ERROR_HANDLER())
    if errors:
        raise XError("; ".join(errors))


def close_window(display_name: str, window: int) -> None:
    """The close button in the title bar: ``WM_DELETE_WINDOW``, which the application may act on (or not)."""
    with _display(display_name) as (lib, display):
        event = _XEvent()
        event.xclient.type = CLIENT_MESSAGE
        event.xclient.window = window
        event.xclient.message_type = lib.XInternAtom(display, b"WM_PROTOCOLS", False)
        event.xclient.format = 32
        event.xclient.data[0] = lib.XInternAtom(display, b"WM_DELETE_WINDOW", False)
        event.xclient.data[1] = 0  # CurrentTime
        lib.XSendEvent(display, window, False, 0, ctypes.byref(event))


def _set_wm_state(lib: ctypes.CDLL, display: int, window: int, state: int) -> None:
    wm_state = lib.XInternAtom(display, b"WM_STATE", False)
    data = (ctypes.c_long * 2)(state, 0)  # format-32 properties are longs in Xlib's API
    lib.XChangeProperty(display, window, wm_state, wm_state, 32, PROP_MODE_REPLACE, ctypes.byref(data), 2)


def minimise_window(display_name: str, window: int, *, unmap: bool) -> None:
    """Iconify as a WM does: ``WM_STATE`` iconic, and unmapped (classic WMs) or left mapped
    (compositing WMs keep a minimised window mapped for their previews)."""
    with _display(display_name) as (lib, display):
        if unmap:
            lib.XUnmapWindow(display, window)
        _set_wm_state(lib, display, window, ICONIC_STATE)


def restore_window(display_name: str, window: int, *, map_again: bool) -> None:
    with _display(display_name) as (lib, display):
        _set_wm_state(lib, display, window, NORMAL_STATE)
        if map_again:
            lib.XMapWindow(display, window)


def focus_window(display_name: str, window: int) -> None:
    """Give ``window`` the keyboard focus, as a WM does when it is clicked (``XSetInputFocus``)."""
    subprocess.run(
        ["xdotool", "windowfocus", str(window)],
        env={**os.environ, "DISPLAY": display_name},
        capture_output=True,
        timeout=10,
        check=True,
    )


def visible_windows(display_name: str, title: str) -> list[int]:
    """Ids of the mapped top-level windows named exactly ``title`` (``xdotool search``)."""
    completed = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", f"^{title}$"],
        env={**os.environ, "DISPLAY": display_name},
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    return [int(line) for line in completed.stdout.split()]
