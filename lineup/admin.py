"""Admin for what the composition root adds: unlocking a sign-in paused by django-axes (decision 0018).

Axes registers its access attempts; this adds the action an operator looks for, "Unlock", which
forgets the selected failed sign-ins so that username can sign in from that address at once.
"""

from __future__ import annotations

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

admin.site.unregister(AccessAttempt)


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
