"""Admin for what the composition root adds: unlocking a sign-in paused by django-axes (decision 0018).

Axes registers its access attempts; this adds the action an operator looks for, "Unlock", which
forgets the selected failed sign-ins so that username can sign in from that address at once.
"""

from __future__ import annotations

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django.apps import apps
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext

admin.site.unregister(AccessAttempt)

# django-axes ships no Chinese catalog: its admin's words are in LineUp's (LOCALE_PATHS comes
# first), marked here so makemessages keeps them; its section is named in the operator's language.
AXES_WORDS = (
    gettext_noop("User Agent"),
    gettext_noop("IP Address"),
    gettext_noop("Username"),
    gettext_noop("HTTP Accept"),
    gettext_noop("Path"),
    gettext_noop("Attempt Time"),
    gettext_noop("Access lock out"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("GET Data"),
    gettext_noop("POST Data"),
    gettext_noop("Failed Logins"),
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("Access Attempt"),
    gettext_noop("Expires At"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("Logout Time"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
    gettext_noop("Locked Out"),
    gettext_noop("Form Data"),
    gettext_noop("Meta Data"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Not set"),
    gettext_noop("Attempt Remaining"),
)
apps.get_app_config("axes").verbose_name = _("Sign-in lockouts")


@admin.register(AccessAttempt)
class UnlockableAccessAttemptAdmin(AccessAttemptAdmin):
    actions = ["unlock", *AccessAttemptAdmin.actions]

    @admin.action(description=_("Unlock: forget these failed sign-ins"), permissions=["delete"])
    def unlock(self, request: HttpRequest, queryset: QuerySet[AccessAttempt]) -> None:
        _total, deleted = queryset.delete()
        unlocked = deleted.get(AccessAttempt._meta.label, 0)
        self.message_user(
            request,
            ngettext("Unlocked %(count)d sign-in.", "Unlocked %(count)d sign-ins.", unlocked) % {"count": unlocked},
            messages.SUCCESS,
        )
