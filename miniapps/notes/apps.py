from django.apps import AppConfig


class NotesConfig(AppConfig):
    name = "miniapps.notes"
    label = "notes"
    verbose_name = "Scratch notes"

    def ready(self) -> None:
        from runtime.api import register_miniapp

        # No tools: the person opens it and writes; the Runtime keeps the text as instance state.
        register_miniapp("notes", tools={})
