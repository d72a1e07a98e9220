"""The Desktop Host: the LineUp workspace in a native window (PySide6 / Qt WebEngine).

``python -m lineup.desktop`` (or ``manage.py run_desktop``) starts the embedded server unless a
server URL is configured, logs the embedded user in, opens ``/workspace/`` in a native window and
stops the server it started when the window closes. The window is a thin host around the same
page the browser loads; how native window events map to the workspace's lifecycle events, and
why it is Qt WebEngine, is in ``docs/decisions/0007-desktop-host.md``.

Modules:
    server.py       the embedded server it starts and stops, and the HTTP login
    window.py       the window and its page: the event mapping and the navigation policy
    app.py          the command line: wiring the two together, signals, exit status
    close_apps.js   what "window close" runs in the page before the window goes away
    screen_lock.py  the screen lock, from the session D-Bus where there is one
    notifications.py  the page's notifications, shown as the desktop's own (freedesktop D-Bus, tray)
"""
