"""Admin for what the composition root adds: unlocking a sign-in paused by django-axes (decision 0018).

Axes registers its access attempts; this adds the action an operator looks for, "Unlock", which
forgets the selected failed sign-ins so that username can sign in from that address at once.
"""

from __future__ import annotations

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib import admin, messages
from django.contrib.auth.models import Permission
from django.db.models import QuerySet
from django.http import HttpRequest
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from lineup.internals.django_admin import replace_boolean_icon

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

# Django 5.2's hidden headers of the sidebar's and the index's model tables (a screen reader reads
# them) are missing from its zh_Hans catalog: LineUp's has them.
DJANGO_WORDS = (
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
)


# django-axes' object titles (breadcrumbs, page titles, messages) are English f-strings: in the
# operator's language instead.
def _access_attempt_title(attempt: AccessAttempt) -> str:
    return _("failed sign-ins of %(username)s from %(ip)s") % {"username": attempt.username, "ip": attempt.ip_address}


def _access_log_title(entry: AccessLog) -> str:
    return _("sign-in of %(username)s at %(time)s") % {"username": entry.username, "time": entry.attempt_time}


def _access_failure_title(entry: AccessFailureLog) -> str:
    return _("failed sign-in of %(username)s at %(time)s") % {"username": entry.username, "time": entry.attempt_time}


AccessAttempt.__str__ = _access_attempt_title
AccessLog.__str__ = _access_log_title
AccessFailureLog.__str__ = _access_failure_title


def _boolean_icon(value: bool | None) -> SafeString:
    """Django's yes/no icon of a list or a read-only field, with its alternative text (read by a
    screen reader, shown when images are off) in the operator's language, not "True"/"False"."""
    icon = static(f"admin/img/icon-{ {True: 'yes', False: 'no', None: 'unknown'}[value] }.svg")
    return format_html('<img src="{}" alt="{}">', icon, {True: _("Yes"), False: _("No"), None: _("Unknown")}[value])


replace_boolean_icon(_boolean_icon)

# Permission names are stored in English (Django writes "Can add <model>" at migrate time, and a
# model's own ones as its Meta says): a user's and a group's page list them in the operator's
# language instead, the built-in four from the model's (translated) name, LineUp's own from this
# catalog.
BUILTIN_PERMISSIONS = {
    "add": _("Can add %(model)s"),
    "change": _("Can change %(model)s"),
    "delete": _("Can delete %(model)s"),
    "view": _("Can view %(model)s"),
}
PERMISSION_WORDS = (
    gettext_noop("Can settle due operations and run the recovery sweep"),
    gettext_noop("Can interrupt running operations with a reason"),
    gettext_noop("Can see MiniApps' private details (e.g. a quiz's answer key)"),
)


def _permission_title(permission: Permission) -> str:
    model = permission.content_type.model_class()
    action, _sep, model_name = permission.codename.partition("_")
    if model is not None and action in BUILTIN_PERMISSIONS and model_name == model._meta.model_name:
        name = str(BUILTIN_PERMISSIONS[action]) % {"model": model._meta.verbose_name}
    else:
        name = gettext(permission.name)
    return f"{permission.content_type} | {name}"


Permission.__str__ = _permission_title


@admin.register(AccessAttempt)
class UnlockableAccessAttemptAdmin(AccessAttemptAdmin):
    actions = ["unlock", *AccessAttemptAdmin.actions]

    @admin.display(description=_("status"))
    def status(self, obj: AccessAttempt) -> str:
        # The column's head is named here: django-axes' is the method's name ("Status").
        return super().status(obj)

    @admin.action(description=_("Unlock: forget these failed sign-ins"), permissions=["delete"])
    def unlock(self, request: HttpRequest, queryset: QuerySet[AccessAttempt]) -> None:
        _total, deleted = queryset.delete()
        unlocked = deleted.get(AccessAttempt._meta.label, 0)
        self.message_user(
            request,
            ngettext("Unlocked %(count)d sign-in.", "Unlocked %(count)d sign-ins.", unlocked) % {"count": unlocked},
            messages.SUCCESS,
        )
