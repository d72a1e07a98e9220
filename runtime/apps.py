from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RuntimeConfig(AppConfig):
    name = "runtime"
    verbose_name = _("Runtime")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Validate every manifest now: a bad one stops start-up with the file and field named,
        # so nothing unvalidated can ever reach the Inventory (SPEC ).
        from runtime.manifests import registry

        registry()

        # The crash-point harness's statement counter (only with LINEUP_CRASH_AT: tests, bench).
        from runtime import crashpoints

        crashpoints.install()

        # A deactivated user's Agents are stopped at once, not at their next hello.
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from runtime.receivers import user_saved

        post_save.connect(user_saved, sender=get_user_model(), dispatch_uid="lineup.runtime.user_saved")
