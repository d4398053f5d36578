"""Lazy package attributes (PEP 562), shared by the packages whose ``__init__`` names the public
names of their modules: a module loads the first time one of its names is read, so importing
one module of a package (``tokens_edu.lab.simulation`` for ``tokens-edu simulate``) does not
load its siblings (issue 31: ``tokens-edu simulate -n 1`` under 0.3 s of CPU).

``from tokens_edu.players import GreedyBot`` works as before (a ``from`` import reads the
attribute, which loads ``players.bots``), and so does reading a submodule as an attribute
(``tokens_edu.players.search`` after ``import tokens_edu.players``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

__all__ = ["attributes"]


def attributes(package: str, names: dict[str, str], namespace: dict[str, Any]) -> tuple[Callable, Callable]:
    """The module ``__getattr__`` and ``__dir__`` of a package with lazy public names.

    Args:
        package: the package's ``__name__``.
        names: public name -> the submodule that defines it (``"bots"`` for ``package.bots``).
        namespace: the package's ``globals()``: a name, once read, is stored there, so later
            reads are plain attribute reads.

    Returns:
        ``(__getattr__, __dir__)`` to assign in the package's ``__init__``.
    """

    def __getattr__(name: str) -> Any:
        where = names.get(name)
        if where is None:  # a submodule read as an attribute before anyone imported it
            if name.startswith("_") or importlib.util.find_spec(f"{package}.{name}") is None:
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
            return importlib.import_module(f"{package}.{name}")
        value = getattr(importlib.import_module(f"{package}.{where}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(names))

    return __getattr__, __dir__
