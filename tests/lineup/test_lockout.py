"""Sign-in throttling (django-axes, decision 0018) on ``/accounts/login/`` and ``/admin/login/``.

Driven through Django's test client, i.e. the real middleware, backends and templates on Postgres:
after ``AXES_FAILURE_LIMIT`` wrong passwords for one username from one address, that pair gets the
lockout page (HTTP 429) — even with the right password — until the cool-off has passed or an admin
unlocks it; other usernames and other addresses are not affected.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

LOGIN_PAGES = ["/accounts/login/", "/admin/login/"]


def attempt(url: str, username: str, password: str, *, address: str = "10.0.0.7", language: str = "en"):
    client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language)
    return client.post(url, {"username": username, "password": password, "next": "/admin/"})


def signed_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.wsgi_request.session


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(username="ops", password="pw-ops-123", email="")


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_the_limit_locks_that_username_from_that_address_only(url, staff, other_user):
    """Four wrong passwords get the form again; the fifth the lockout page (429, with the limit and
    the cool-off in it), and then the right password is refused too. Another username from the same
    address and the same username from another address still sign in."""
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        assert attempt(url, "ops", "wrong").status_code == 200
    locked = attempt(url, "ops", "wrong")
    assert locked.status_code == 429
    text = locked.content.decode()
    assert "Too many failed sign-ins" in text and f"After {limit} wrong passwords" in text and "15 minutes" in text
    assert attempt(url, "ops", "pw-ops-123").status_code == 429  # the right password does not lift it

    assert signed_in(attempt(url, "ops", "pw-ops-123", address="10.0.0.8"))
    if url == "/accounts/login/":  # the admin's sign-in is for staff only
        assert signed_in(attempt(url, "bob", "pw-bob-123"))


@pytest.mark.spec("R-2.2.3")
def test_a_success_before_the_limit_starts_the_count_again(staff):
    """A person who mistyped a few times and then got it right is not closer to a lockout."""
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt("/accounts/login/", "ops", "wrong")
    assert signed_in(attempt("/accounts/login/", "ops", "pw-ops-123"))
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt("/accounts/login/", "ops", "wrong").status_code == 200


@pytest.mark.spec("R-2.2.3")
def test_the_lockout_ends_after_the_cool_off(staff):
    """Once the last failed attempt is older than the cool-off, the right password signs in again."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt("/accounts/login/", "ops", "wrong")
    assert attempt("/accounts/login/", "ops", "pw-ops-123").status_code == 429
    cool_off = timedelta(hours=settings.AXES_COOLOFF_TIME)
    AccessAttempt.objects.update(attempt_time=timezone.now() - cool_off + timedelta(seconds=30))
    assert attempt("/accounts/login/", "ops", "pw-ops-123").status_code == 429  # not yet
    AccessAttempt.objects.update(attempt_time=timezone.now() - cool_off - timedelta(seconds=1))
    assert signed_in(attempt("/accounts/login/", "ops", "pw-ops-123"))


@pytest.mark.spec("R-2.2.3")
def test_an_admin_unlocks_a_paused_sign_in(staff, user):
    """The admin's access-attempt list offers "Unlock"; after it the locked person signs in at once."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt("/accounts/login/", "ada", "wrong")
    assert attempt("/accounts/login/", "ada", "pw-ada-123").status_code == 429

    admin = Client(REMOTE_ADDR="10.0.0.1")
    admin.force_login(staff)
    listing = admin.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200 and "Unlock: forget these failed sign-ins" in listing.content.decode()
    locked = AccessAttempt.objects.get(username="ada")
    done = admin.post("/admin/axes/accessattempt/", {"action": "unlock", "_selected_action": [locked.pk]}, follow=True)
    assert "Unlocked 1 sign-in." in done.content.decode()
    assert not AccessAttempt.objects.exists()
    assert signed_in(attempt("/accounts/login/", "ada", "pw-ada-123"))


@pytest.mark.spec("R-2.2.3")
def test_the_lockout_page_speaks_chinese(user):
    """The page is in the person's language (zh-Hans here), with the numbers in place."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        locked = attempt("/accounts/login/", "ada", "wrong", language="zh-hans")
    text = locked.content.decode()
    assert locked.status_code == 429 and 'lang="zh-hans"' in text
    assert "登录失败次数过多" in text and "15 分钟" in text and f"{settings.AXES_FAILURE_LIMIT} 次" in text


@pytest.mark.spec("R-2.2.3")
def test_one_address_trying_many_usernames_is_paused_too(settings, staff, user):
    """One password against every username: after ``LINEUP_LOGIN_ADDRESS_FAILURE_LIMIT`` failures
    from one address, whatever the usernames, that address is paused, even for a right password;
    another address is not."""
    settings.LINEUP_LOGIN_ADDRESS_FAILURE_LIMIT = 8
    for n in range(7):
        assert attempt("/accounts/login/", f"guess-{n}", "Winter2026!").status_code == 200
    assert attempt("/accounts/login/", "guess-7", "Winter2026!").status_code == 429  # the eighth: paused
    assert attempt("/accounts/login/", "ops", "pw-ops-123").status_code == 429
    assert signed_in(attempt("/accounts/login/", "ops", "pw-ops-123", address="10.0.0.8"))


@pytest.mark.spec("R-2.2.3")
def test_x_forwarded_for_is_ignored_unless_proxies_are_trusted(settings, staff):
    """By default a client's X-Forwarded-For changes nothing: new addresses in it never reset the
    count, and a paused pair stays paused. With one trusted proxy hop, the entry that proxy appended
    (the rightmost) is the address, and what the client wrote before it is ignored."""

    def forged(password: str, forwarded: str, peer: str = "10.0.0.7"):
        client = Client(REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)
        return client.post("/accounts/login/", {"username": "ops", "password": password, "next": "/admin/"})

    for n in range(settings.AXES_FAILURE_LIMIT):
        forged("wrong", f"198.51.100.{n}")
    assert forged("pw-ops-123", "203.0.113.99").status_code == 429

    settings.LINEUP_TRUSTED_PROXY_HOPS = 1
    # Behind our proxy (peer 10.0.0.1) the client is the proxy's entry, 192.0.2.5, whatever it forged.
    for n in range(settings.AXES_FAILURE_LIMIT):
        forged("wrong", f"198.51.100.{n}, 192.0.2.5", peer="10.0.0.1")
    assert forged("pw-ops-123", "203.0.113.99, 192.0.2.5", peer="10.0.0.1").status_code == 429
    assert signed_in(forged("pw-ops-123", "192.0.2.6", peer="10.0.0.1"))
