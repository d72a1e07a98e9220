from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InteractConfig(AppConfig):
    name = "interact"
    verbose_name = _("Interact")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Interact's part in the Runtime's decisions (agent ended, the periodic sweep).
        from interact import receivers

        receivers.connect()
