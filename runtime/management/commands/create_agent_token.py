"""``manage.py create_agent_token NAME --user USERNAME``: issue a token; it is printed alone on the last line.

Before it, on stderr, the MCP URL of the user's default conversation, so an MCP client can be
pointed at LineUp without looking the conversation up (the Agents page in the workspace shows the
same URL and ready-made client configurations).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from runtime.services.agents import AgentNameError, BuiltinAgentError, create_agent_token
from runtime.services.conversations import conversation_get_or_create_default


class Command(BaseCommand):
    help = (
        "Issue a token for the Agent NAME acting for USERNAME. Shown once; only its digest is stored. "
        "Also prints the MCP URL of the user's default conversation."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the Agent's name, e.g. 'claude' or 'my-agent'")
        parser.add_argument("--user", required=True, help="the username the Agent acts for")
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000",
            help="the address clients reach this server at, for the printed MCP URL (default %(default)s)",
        )

    def handle(self, *args: object, name: str, user: str, url: str, **options: object) -> None:
        account = get_user_model().objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"no user {user!r}; create one with manage.py createsuperuser")
        conversation = conversation_get_or_create_default(user=account)
        try:
            agent, token = create_agent_token(user=account, name=name, now=timezone.now())
        except AgentNameError:
            raise CommandError("NAME must be 1 to 100 characters") from None
        except BuiltinAgentError as error:
            raise CommandError(f"{error}: pick another NAME") from None
        self.stderr.write(f"Agent {agent.name!r} ({agent.id}) acts for {account.get_username()}.")
        self.stderr.write(f"MCP URL of the default conversation: {url.rstrip('/')}/mcp/{conversation.id}/")
        self.stderr.write("Token (shown once; send it as 'Authorization: Bearer <token>'):")
        self.stdout.write(token)
