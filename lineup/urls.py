"""HTTP routes. WebSocket routes live in lineup.asgi."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from interact import views

urlpatterns = [
    path("", RedirectView.as_view(url="/workspace/", permanent=False)),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, next_page="/workspace/"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="/accounts/login/"), name="logout"),
    path("workspace/", views.workspace, name="workspace"),
    path("workspace/agents/", views.agents, name="agents"),
    path("workspace/agents/tokens/<int:token_id>/revoke/", views.agent_token_revoke, name="agent-token-revoke"),
    path("surfaces/<slug:app_id>/", views.surface, name="surface"),
    path("admin/", admin.site.urls),
    # The page's strings for static/workspace/*.js (django.gettext), in the request's language.
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("i18n/setlang/", views.set_language, name="set_language"),
]
