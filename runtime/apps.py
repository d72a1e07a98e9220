from django.apps import AppConfig


class RuntimeConfig(AppConfig):
    name = "runtime"
    verbose_name = "Runtime"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Validate every manifest now: a bad one stops start-up with the file and field named,
        # so nothing unvalidated can ever reach the Inventory (SPEC ).
        from runtime.manifests import registry

        registry()
