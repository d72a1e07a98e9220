from django.apps import AppConfig


class InteractConfig(AppConfig):
    name = "interact"
    verbose_name = "Interact"
    default_auto_field = "django.db.models.BigAutoField"
