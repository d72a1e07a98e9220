"""``/static/`` served by Daphne itself (the embedded default): a path that leaves the directory is 404.

Django's static view refuses ``..`` with ``SuspiciousFileOperation``, which reached the handler as a
500 with a traceback in the log; a request for a file that is not there is simply not found.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.exceptions import SuspiciousFileOperation
from django.core.handlers.exception import response_for_exception
from django.http import Http404


class StaticFiles(ASGIStaticFilesHandler):
    async def get_response_async(self, request: Any) -> Any:
        try:
            return await sync_to_async(self.serve, thread_sensitive=False)(request)
        except (Http404, SuspiciousFileOperation, ValueError):  # ValueError: a NUL byte in the path
            return await sync_to_async(response_for_exception, thread_sensitive=False)(request, Http404())
