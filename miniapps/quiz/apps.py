from django.apps import AppConfig


class QuizConfig(AppConfig):
    name = "miniapps.quiz"
    label = "quiz"
    verbose_name = "Practice quiz"

    def ready(self) -> None:
        # Register the tool handlers before the Runtime validates the manifests (docs/miniapps.md).
        from miniapps.quiz import tools
        from runtime.api import register_miniapp

        register_miniapp(
            tools.APP_ID,
            tools={tools.START_TOOL: tools.start, tools.STOP_TOOL: tools.stop},
            result=tools.result,
            projection=tools.projection,
            private_details=[tools.ANSWER_KEY],  # the admin masks it
        )
