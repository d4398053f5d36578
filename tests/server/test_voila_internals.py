"""Voila's insides that ``tokens-edu serve`` adjusts are still as they were when it was tested.

``tokens_edu/server/`` subclasses the preheating kernel manager that Voila 0.5 makes in
``voila.voila_kernel_manager.voila_kernel_manager_factory`` (``pools.py``), replaces the module's
``wait_before`` and ``NotebookRenderer``, swaps a few handler classes (``pages.py``,
``handlers.py``) and Voila's stop (``voila.py``); each module's docs list its changes and the
Voila bug behind each. Voila 0.5.x releases have changed those insides (0.5.8 changed the factory), so
pyproject.toml pins the tested range (0.5.8 to 0.5.13). If a new Voila is installed anyway, this
test says in plain words what moved, instead of the warm-kernel pool failing quietly in class.
"""

from __future__ import annotations

import inspect

import pytest

ADVICE = ("tokens-edu serve adjusts Voila's warm-kernel pool and some of its handlers "
          "(tokens_edu/server/). Use the Voila range pinned in pyproject.toml (0.5.8 to "
          "0.5.13), or check tokens_edu/server/ against this Voila and then widen the pin "
          "(drop the changes this Voila makes unneeded).")


def _problem(what: str) -> None:
    import voila

    pytest.fail(f"Voila {voila.__version__}: {what}. {ADVICE}", pytrace=False)


def _params(fn) -> list[str]:
    return list(inspect.signature(fn).parameters)


def _preheat_class():
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from voila.voila_kernel_manager import voila_kernel_manager_factory

    return voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)


def test_wait_before_is_a_module_function_the_pool_calls():
    import voila.voila_kernel_manager as vkm

    if not inspect.iscoroutinefunction(getattr(vkm, "wait_before", None)):
        _problem("voila.voila_kernel_manager.wait_before (the delay before a warm kernel "
                 "starts) is gone or no longer a coroutine function")
    if _params(vkm.wait_before)[:2] != ["delay", "aw"]:
        _problem(f"wait_before now takes {_params(vkm.wait_before)}, not (delay, aw)")
    fill = inspect.getsource(_preheat_class().fill_if_needed)
    if "wait_before(" not in fill:
        _problem("fill_if_needed no longer calls wait_before, so warm kernels would not start "
                 "one at a time")


def test_the_factory_is_where_voila_app_gets_its_kernel_manager():
    import voila.app

    factory = getattr(voila.app, "voila_kernel_manager_factory", None)
    if factory is None:
        _problem("voila.app no longer imports voila_kernel_manager_factory")
    if _params(factory)[:3] != ["base_class", "preheat_kernel", "default_pool_size"]:
        _problem(f"voila_kernel_manager_factory now takes {_params(factory)}")
    app_source = inspect.getsource(voila.app)
    if "voila_kernel_manager_factory(" not in app_source:
        _problem("voila.app no longer calls voila_kernel_manager_factory by that name")


def test_the_preheat_pool_has_the_methods_and_traits_that_are_changed():
    cls = _preheat_class()
    expected = {
        "get_rendered_notebook": ["self", "notebook_name", "extra_kernel_env_variables"],
        "get_pool_size": ["self", "notebook_name"],
        "fill_if_needed": ["self", "delay", "notebook_name", "extra_kernel_env_variables"],
    }
    for name, params in expected.items():
        fn = getattr(cls, name, None)
        if fn is None:
            _problem(f"the preheating kernel manager has no {name}()")
        if _params(fn)[: len(params)] != params:
            _problem(f"{name} now takes {_params(fn)}, not {params}")
    for trait in ("kernel_pools_config", "fill_delay"):
        if not cls.class_traits().get(trait):
            _problem(f"the preheating kernel manager has no '{trait}' setting")
    init = inspect.getsource(cls.__init__)
    if "self._pools" not in init:
        _problem("the pool of warm kernels is no longer kept in self._pools")
    take = inspect.getsource(cls.get_rendered_notebook)
    if ".pop(0)" not in take:
        _problem("get_rendered_notebook no longer takes the first warm kernel of the pool")


def test_the_page_handler_asks_the_pool_size_before_taking_a_kernel():
    import voila.handler

    source = inspect.getsource(voila.handler)
    size_at = source.find("get_pool_size(")
    take_at = source.find("get_rendered_notebook(")
    if size_at < 0 or take_at < 0 or size_at > take_at:
        _problem("Voila's page handler no longer checks get_pool_size() before "
                 "get_rendered_notebook()")


def test_installed_voila_is_in_the_pinned_range():
    from packaging.version import Version

    import voila

    version = Version(voila.__version__)
    if not Version("0.5.8") <= version < Version("0.5.14"):
        _problem("this Voila is outside the tested range")


def test_the_parts_voila_server_swaps_are_where_it_expects_them():
    """Each class or function voila_server.py subclasses or replaces, with the methods it
    overrides (a renamed method would silently switch a fix off)."""
    import voila.app
    import voila.handler
    import voila.voila_kernel_manager as vkm
    from voila.request_info_handler import RequestInfoSocketHandler
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
    from voila.static_file_handler import TemplateStaticFileHandler
    from voila.tornado.contentshandler import VoilaContentsHandler
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.treehandler import TornadoVoilaTreeHandler

    expected = [
        (TornadoVoilaHandler, "get", ["self", "path"]),
        (TornadoVoilaHandler, "should_use_rendered_notebook",
         ["self", "notebook_data", "pool_size", "template_name", "theme", "request_args"]),
        (RequestInfoSocketHandler, "open", ["self", "kernel_id"]),
        (RequestInfoSocketHandler, "on_close", ["self"]),
        (VoilaShutdownKernelHandler, "post", ["self", "kernel_id"]),
        (TemplateStaticFileHandler, "parse_url_path", ["self", "path"]),
        (TornadoVoilaTreeHandler, "get", ["self", "path"]),
        (VoilaContentsHandler, "get", ["self", "path"]),
        (voila.handler.NotebookRenderer, "generate_content_generator",
         ["self", "kernel_id", "kernel_future"]),
        (voila.app.Voila, "init_handlers", ["self"]),
        (voila.app.Voila, "init_settings", ["self"]),
        (voila.app.Voila, "listen", ["self"]),
        (voila.app.Voila, "stop", ["self"]),
        (voila.app.Voila, "_handle_signal_stop", ["self", "sig", "frame"]),
    ]
    for cls, name, params in expected:
        fn = getattr(cls, name, None)
        if fn is None or _params(fn) != params:
            _problem(f"{cls.__name__}.{name} is gone or changed "
                     f"({_params(fn) if fn else 'missing'}, not {params})")
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

    for name in ("notify_connect", "notify_disconnect"):
        if _params(getattr(MappingKernelManager, name, None) or (lambda: 0)) != ["self", "kernel_id"]:
            _problem(f"jupyter_server's kernel manager has no {name}(kernel_id) (a page's "
                     "browser connecting to its kernel is noticed there)")
    for attr in ("_waiters", "_cache"):
        if not isinstance(getattr(RequestInfoSocketHandler, attr, None), dict):
            _problem(f"RequestInfoSocketHandler.{attr} is no longer a class-level table")
    if vkm.NotebookRenderer is not voila.handler.NotebookRenderer:
        _problem("the page handler and the warm pool no longer use one NotebookRenderer")
    if "connection_dir_root" not in voila.app.Voila.class_traits():
        _problem("Voila has no connection_dir_root setting")
    beacon = "voila/api/shutdown/"
    source = inspect.getsource(voila.app)
    if beacon.rstrip("/") not in source:
        _problem("the page's shutdown call (/voila/api/shutdown/<kernel>) is gone")
    if "signal.signal(signal.SIGTERM, self._handle_signal_stop)" not in source:
        _problem("Voila no longer stops on SIGTERM through _handle_signal_stop")
    if "finally:\n            self.stop()" not in source:
        _problem("Voila's listen() no longer calls stop() when its loop ends")
    if "self.identity_provider.get_handlers()" not in source:
        _problem("Voila no longer takes /login and /logout from its identity provider")
    if "self.tornado_settings" not in source:
        _problem("Voila no longer applies tornado_settings (the websocket ping timeout)")
