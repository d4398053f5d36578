"""The teacher's dashboard: a small Tornado app showing the class's answers, progress, the answer
wall and games with replays, live.

One module per concern, as JupyterHub and Voila lay theirs out:

- :mod:`.dashboard`: the app (:func:`~.dashboard.make_app`, :func:`~.dashboard.serve`);
- :mod:`.data`: what it reads from the store, a little at a time (the only module that reads it);
- :mod:`.lessons`: each lesson's Discuss questions, from the notebooks' metadata;
- :mod:`.base`, :mod:`.pages`, :mod:`.replay`, :mod:`.live`: the pages, drawn from Jinja2
  templates in ``templates/`` with the script and style in ``static/``;
- :mod:`.auth`: the token-or-password login and its throttle; :mod:`.hub_auth`: JupyterHub's
  login (``HubOAuthenticated``) when it runs as a Hub service;
- :mod:`.words`: the clock and the words for a game's state, in one place.

Never imports the widgets: it draws from :mod:`tokens_edu.present`.
"""
