"""The dashboard's login when it runs as a JupyterHub service: JupyterHub's own.

JupyterHub starts ``tokens-edu teacher`` as the service ``teacher`` (deploy/jupyterhub) and
gives it, in its environment, the service's token, its OAuth client and the scopes a visitor
must hold (``JUPYTERHUB_OAUTH_ACCESS_SCOPES``, here ``access:services!service=teacher``, which
the Hub grants only to the ``teachers`` group). Every page handler then mixes in JupyterHub's
``HubOAuthenticated``, as the Hub's own service example does: a visitor without a Hub session
is sent to the Hub's login and back (OAuth, ``oauth_callback``); a logged-in user without the
scope gets *403 Forbidden*. No dashboard token or password is needed then.

Needs ``jupyterhub`` (``pip install 'tokens-edu[hub]'``): imported only when the Hub starts
the dashboard.
"""

from __future__ import annotations

import os

from .base import BaseHandler

__all__ = ["HubTeacherAuth", "running_as_hub_service"]


def running_as_hub_service() -> bool:
    """True when JupyterHub started this process as a service with OAuth (its environment)."""
    return bool(os.environ.get("JUPYTERHUB_SERVICE_NAME") and os.environ.get("JUPYTERHUB_API_TOKEN")
                and os.environ.get("JUPYTERHUB_CLIENT_ID"))


class HubTeacherAuth:
    """The JupyterHub login, for :func:`tokens_edu.teacher.dashboard.make_app`.

    Attributes:
        mixin: ``jupyterhub.services.auth.HubOAuthenticated``, put in front of every handler.
        token: None (there is no dashboard token under the Hub).

    Raises:
        ValueError: not started by JupyterHub as a service with OAuth, or without access
            scopes (plain words).
    """

    token = None
    password = None

    def __init__(self):
        if not running_as_hub_service():
            raise ValueError("The Hub login needs the dashboard to be started by JupyterHub as "
                             "a service (see deploy/jupyterhub/jupyterhub_config.py).")
        # here, not at the top: JupyterHub is installed only where the Hub runs (extra "hub")
        from jupyterhub.services.auth import HubOAuth, HubOAuthenticated

        self.hub_auth = HubOAuth.instance(cache_max_age=60)
        if not self.hub_auth.access_scopes:
            raise ValueError("JupyterHub gave the dashboard no access scopes: check the "
                             "service's oauth settings in the Hub's config.")
        self.mixin = HubOAuthenticated

    def handlers(self) -> list:
        """``oauth_callback`` (the Hub's answer), ``logout``, and ``login`` (to the Hub's)."""
        # here, not at the top: see __init__
        from jupyterhub.services.auth import HubOAuthCallbackHandler

        return [(r"oauth_callback", HubOAuthCallbackHandler), (r"logout", HubLogoutHandler),
                (r"login", HubLoginHandler)]


class HubLoginHandler(BaseHandler):
    """``login``: to the dashboard's first page, which sends a visitor to the Hub's login."""

    def get(self):
        self.redirect(self.base)


class HubLogoutHandler(BaseHandler):
    """``GET`` or ``POST logout``: forget the Hub login in this dashboard, and offer the Hub's
    own logout (which ends the Hub session too)."""

    def get(self):
        self.hub_auth.clear_cookie(self)
        hub = os.environ.get("JUPYTERHUB_BASE_URL", "/").rstrip("/") + "/hub/logout"
        self.finish(self.render_template("logged_out.html", title="Logged out", hub_logout=hub))

    post = get
