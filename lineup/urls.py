"""HTTP routes. WebSocket routes live in lineup.asgi."""

from django.contrib import admin
from django.urls import path

urlpatterns = [
    path("admin/", admin.site.urls),
]
