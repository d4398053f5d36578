"""The teacher's dashboard: a small Tornado app with every student's answers, progress, the
answer wall, games with replays and a CSV download (:mod:`.dashboard`), with a token or password
login, or the JupyterHub login when it runs as a Hub service (:mod:`.hub_auth`). Never imports
the widgets: it draws from :mod:`tokens_edu.present`.
"""
