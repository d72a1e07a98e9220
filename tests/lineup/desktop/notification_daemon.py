"""``python tests/lineup/desktop/notification_daemon.py``: the desktop's notification service, as GNOME or KDE run it.

It owns ``org.freedesktop.Notifications`` on the session bus (``$DBUS_SESSION_BUS_ADDRESS``) and
answers ``Notify`` and ``GetCapabilities`` as a notification daemon does, printing each
notification it is asked to show as one JSON line (``notification.shown {...}``), so a test reads
what the person would have seen. Written with ``jeepney`` (as the Desktop Host's sender is), so the
call's types are checked against the specification's signature ``susssasa{sv}i``.
"""

import json
import sys

from jeepney import HeaderFields, MessageType, message_bus, new_error, new_method_return
from jeepney.io.blocking import open_dbus_connection

SERVICE = INTERFACE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
NOTIFY_SIGNATURE = "susssasa{sv}i"

connection = open_dbus_connection(bus="SESSION")
reply = connection.send_and_get_reply(message_bus.RequestName(SERVICE), timeout=10)
if reply.body[0] != 1:  # DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
    print(f"notification.failed reply={reply.body!r}", flush=True)
    sys.exit(1)
print("notification.ready", flush=True)
next_id = 0
while True:
    message = connection.receive()
    fields = message.header.fields
    if message.header.message_type != MessageType.method_call or fields.get(HeaderFields.interface) != INTERFACE:
        continue
    member = fields.get(HeaderFields.member)
    if member == "Notify" and fields.get(HeaderFields.signature) == NOTIFY_SIGNATURE:
        app_name, _replaces, _icon, summary, body, actions, _hints, timeout = message.body
        next_id += 1
        record = {"id": next_id, "app": app_name, "summary": summary, "body": body, "actions": list(actions)}
        print(f"notification.shown {json.dumps(record, ensure_ascii=False)}", flush=True)
        connection.send(new_method_return(message, "u", (next_id,)))
    elif member == "GetCapabilities":
        connection.send(new_method_return(message, "as", (["body", "actions"],)))
    else:
        connection.send(new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", (f"not here: {member}",)))
