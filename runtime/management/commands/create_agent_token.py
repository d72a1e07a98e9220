"""``manage.py create_agent_token NAME --user USERNAME``: issue a token; it is printed alone on the last line."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from runtime.services.agents import BuiltinAgentError, create_agent_token
from runtime.services.conversations import conversation_get_or_create_default


class Command(BaseCommand):
    help = "Issue a token for the Agent NAME acting for USERNAME. Shown once; only its digest is stored."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the Agent's name, e.g. 'claude' or 'my-agent'")
        parser.add_argument("--user", required=True, help="the username the Agent acts for")

    def handle(self, *args: object, name: str, user: str, **options: object) -> None:
        account = get_user_model().objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"no user {user!r}; create one with manage.py createsuperuser")
        if not name.strip() or len(name) > 100:
            raise CommandError("NAME must be 1 to 100 characters")
        conversation_get_or_create_default(user=account)
        try:
            agent, token = create_agent_token(user=account, name=name.strip(), now=timezone.now())
        except BuiltinAgentError as error:
            raise CommandError(f"{error}: pick another NAME") from None
        self.stderr.write(f"Agent {agent.name!r} ({agent.id}) acts for {account.get_username()}. Token:")
        self.stdout.write(token)
