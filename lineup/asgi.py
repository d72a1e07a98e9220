"""ASGI entry point: ``python -m daphne lineup.asgi:application``.

HTTP goes to Django; WebSocket routes are added by the Agent and workspace consumers. In the
embedded default this process also runs the in-process deadline scheduler.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402  (needs Django set up first)

from runtime.scheduler import start_embedded_scheduler_if_configured  # noqa: E402

application = ProtocolTypeRouter({"http": django_asgi_app})

start_embedded_scheduler_if_configured()
