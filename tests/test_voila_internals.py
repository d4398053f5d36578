"""Voila's insides that ``tokens-edu serve`` adjusts are still as they were when it was tested.

``tokens_edu.cli.ready_first_pool`` subclasses the preheating kernel manager that Voila 0.5 makes
in ``voila.voila_kernel_manager.voila_kernel_manager_factory`` and replaces the module's
``wait_before``. Voila 0.5.x releases have changed those insides (0.5.8 changed the factory), so
pyproject.toml pins the tested range (0.5.8 to 0.5.13). If a new Voila is installed anyway, this
test says in plain words what moved, instead of the warm-kernel pool failing quietly in class.
"""

from __future__ import annotations

import inspect

import pytest

ADVICE = ("tokens-edu serve adjusts Voila's warm-kernel pool (tokens_edu/cli.py, "
          "ready_first_pool). Use the Voila range pinned in pyproject.toml (0.5.8 to 0.5.13), "
          "or check ready_first_pool against this Voila and then widen the pin.")


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
