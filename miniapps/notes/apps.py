from django.apps import AppConfig


class NotesConfig(AppConfig):
    name = "miniapps.notes"
    label = "notes"
    verbose_name = "Scratch notes"

    def ready(self) -> None:
        from miniapps.notes import tools
        from runtime.api import register_miniapp

        # The person opens it and writes; the Agent appends and reads: one state, kept by the Runtime.
        register_miniapp(tools.APP_ID, tools={tools.APPEND_TOOL: tools.append, tools.READ_TOOL: tools.read})
