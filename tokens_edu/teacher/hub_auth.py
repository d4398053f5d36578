"""The teacher dashboard's login when it runs as a JupyterHub service: the Hub's own login.

JupyterHub starts ``tokens-edu teacher`` as the service ``teacher`` (deploy/jupyterhub) and
gives it, in its environment, the service's token, its OAuth client and the scopes a visitor
must hold (``JUPYTERHUB_OAUTH_ACCESS_SCOPES``, here ``access:services!service=teacher``, which
the Hub grants only to the ``teachers`` group). :class:`HubTeacherAuth` plugs into
:func:`tokens_edu.dashboard.make_app` in place of the token login: a visitor without a Hub
session is sent to the Hub's login and back (OAuth); a logged-in user without the scope gets
*403 Forbidden*. No dashboard token or password is needed then.

Uses ``jupyterhub.services.auth.HubOAuth`` (``pip install 'tokens-edu[hub]'``).
"""

from __future__ import annotations

import os

import tornado.web

__all__ = ["HubTeacherAuth", "running_as_hub_service"]


def running_as_hub_service() -> bool:
    """True when JupyterHub started this process as a service with OAuth (its environment)."""
    return bool(os.environ.get("JUPYTERHUB_SERVICE_NAME") and os.environ.get("JUPYTERHUB_API_TOKEN")
                and os.environ.get("JUPYTERHUB_CLIENT_ID"))


class HubTeacherAuth:
    """Dashboard login through JupyterHub OAuth; same methods as ``dashboard.TokenAuth``.

    Raises:
        ValueError: not started by JupyterHub as a service with OAuth (plain words).
    """

    login_path = "login"
    token = None  # no dashboard token: the Hub's login is the only way in

    def __init__(self):
        if not running_as_hub_service():
            raise ValueError("The Hub login needs the dashboard to be started by JupyterHub as "
                             "a service (see deploy/jupyterhub/jupyterhub_config.py).")
        from jupyterhub.services.auth import HubOAuth

        self.hub_auth = HubOAuth.instance(cache_max_age=60)
        if not self.hub_auth.access_scopes:
            raise ValueError("JupyterHub gave the dashboard no access scopes: check the "
                             "service's oauth settings in the Hub's config.")

    def current_user(self, handler: tornado.web.RequestHandler) -> str | None:
        """The Hub user's name when they hold the dashboard's access scope, else None
        (not logged in: the dashboard sends them to the login). Logged in without the scope:
        ``HTTPError(403)``."""
        model = self.hub_auth.get_user(handler, sync=True)
        if not model:
            return None
        if not self.hub_auth.check_scopes(self.hub_auth.access_scopes, model):
            raise tornado.web.HTTPError(403, "Only teachers may open the teacher dashboard.")
        return model["name"]

    def check(self, secret: object) -> bool:
        """No secret opens the dashboard under JupyterHub (the login form is not used)."""
        return False

    def sign_in(self, handler: tornado.web.RequestHandler) -> None:  # the Hub's OAuth does it
        return None

    def sign_out(self, handler: tornado.web.RequestHandler) -> None:
        self.hub_auth.clear_cookie(handler)

    def login_handlers(self) -> list:
        """``login`` (to the Hub's login, then back) and ``oauth_callback`` (the Hub's answer)."""
        from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler
        from tornado.httputil import url_concat

        hub_auth = self.hub_auth

        class ToHubLogin(tornado.web.RequestHandler):
            def get(self):
                base = self.application.settings["base_url"]
                target = self.get_argument("next", "")
                if not target.startswith(base) or target.startswith(base + "login"):
                    target = base
                params = {}
                verifier = None
                if hub_auth.pkce_enabled:
                    verifier, challenge, method = hub_auth.generate_pkce_code_challenge()
                    params.update(code_challenge=challenge, code_challenge_method=method)
                params["state"] = hub_auth.set_state_cookie(self, next_url=target,
                                                            code_verifier=verifier)
                self.redirect(url_concat(hub_auth.login_url, params))

        class FromHub(HubOAuthCallbackHandler):
            hub_auth_class = HubOAuth

        return [(r"login", ToHubLogin), (r"oauth_callback", FromHub)]
