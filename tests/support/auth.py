"""Signing in from tests the way the sign-in form does it.

Django's ``Client.login`` calls ``authenticate`` without a request, and the throttling backend
(django-axes, decision 0018) refuses to judge a sign-in it can not place: pass it the request a
form post would have, from the loopback address.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.test import Client


def password_login(client: Client, username: str, password: str) -> bool:
    request = HttpRequest()
    request.META["REMOTE_ADDR"] = "127.0.0.1"
    return client.login(request=request, username=username, password=password)
