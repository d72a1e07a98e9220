from django.apps import AppConfig


class InteractConfig(AppConfig):
    name = "interact"
    verbose_name = "Interact"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Interact's part in the Runtime's decisions (agent ended, the periodic sweep).
        from interact import receivers

        receivers.connect()
