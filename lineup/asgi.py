"""ASGI entry point: ``python -m daphne lineup.asgi:application``.

HTTP goes to Django; WebSocket routes are added by the Agent and workspace consumers. In the
embedded default this process also serves static files and runs the in-process deadline
scheduler.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402  (needs Django set up first)
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from runtime.scheduler import start_embedded_scheduler_if_configured  # noqa: E402

# One process, nothing else installed: Daphne serves /static/ itself. Behind a reverse proxy
# (production) set LINEUP_SERVE_STATIC=0 and serve STATIC_ROOT from the proxy.
http_app = ASGIStaticFilesHandler(django_asgi_app) if settings.LINEUP_SERVE_STATIC else django_asgi_app

application = ProtocolTypeRouter({"http": http_app})

start_embedded_scheduler_if_configured()
