"""The Voila server that ``tokens-edu serve`` runs, with the changes a class needs.

``tokens-edu serve`` (:mod:`.launcher`) starts it as a child process:
``python -m tokens_edu.server SETTINGS VOILA-ARGS...`` (:mod:`tokens_edu.server.__main__`), which
imports only this subpackage (and the light ``tokens_edu`` package module), not the game or its
card data. Every change is a small subclass or a named swap of one Voila 0.5 part, each with its
reason, so that a Voila upgrade can drop the ones it fixes (``tests/server/test_voila_internals.py``
checks that the parts are where they were):

* warm kernels that follow demand, one start at a time, memory measured: :mod:`.pools`;
* the class cap, and who gives way at it: :mod:`.capacity`;
* a page's websocket messages and a kernel's memory have limits: :mod:`.limits`;
* pages (``_xsrf`` cookie, cap, no raw Python text, a guard that says when the kernel is gone,
  pages that end instead of hanging, nothing loaded from another computer): :mod:`.pages`;
* the other handlers' fixes (query socket, shutdown call, template files, hidden folders, plain
  error pages, ``/logout``, the kernel status the page guard asks): :mod:`.handlers`;
* kernels no page uses given back, today's lesson, status lines: :mod:`.watch`, :mod:`.console`
  (which also keeps what pages send from taking over the teacher's console);
* here: :class:`TemplateBytecode` (compiled page templates shared by every page), the
  heartbeat, the connection folder, the trust check, and a clean stop (:func:`stop_everything`).

One more Voila workaround lives in the page, in the Discuss box's front end
(``tokens_edu/widgets/static/discuss.js``): Voila's own ``beforeunload`` listener stops the
kernel before the browser asks "leave this page?"; while a box holds unsaved text, that call is
held back until the page really goes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import sys
import time
import warnings
from pathlib import Path

import jinja2
import tornado.web

from .. import _moved
from .console import VOICE, DropKnownNoise, quiet_logs, silence
from .handlers import (
    KERNEL_ID,
    KernelStatusHandler,
    PlainErrors,
    hiding_handler,
    kernel_socket_handler,
    logout_handler,
    query_socket_handler,
    shutdown_handler,
    template_file_handler,
)
from .limits import WS_MAX_BYTES
from .pages import guarded_renderer, page_handler
from .pools import StartQueue, is_ready, kernel_manager
from .state import ServeState
from .watch import watch

__all__ = ["main", "make_app_class", "stop_everything", "share_template_bytecode",
           "clean_stale_connection_dirs", "HEARTBEAT_S", "STOP_BUDGET_S"]

# Old names of this module (DEFAULTS: in .state), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)

log = logging.getLogger("tokens-edu")

#: Seconds between two heartbeat pings of a kernel client (``HBChannel.time_to_dead``, 1 s in
#: jupyter_client 8). Clients made by this server's kernel manager ask the manager whether the
#: kernel runs (``KernelClient._async_is_alive``), never the heartbeat, so the pings only cost
#: CPU: a thread per warm kernel waking every second.
HEARTBEAT_S = 30.0
#: Seconds the Voila side takes at most to stop every kernel (the launcher waits a little
#: longer, then stops it hard): students' kernels are asked to stop (they save what they keep),
#: warm ones are stopped at once.
STOP_BUDGET_S = 7.0


class TemplateBytecode(jinja2.BytecodeCache):
    """A Jinja bytecode cache in memory, shared by every page's exporter (see
    :func:`share_template_bytecode`). Keys hold each template's name and source checksum, so a
    changed template file is compiled again."""

    def __init__(self):
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._code.clear()


def share_template_bytecode(exporter_class: type) -> None:
    """Make every Jinja environment ``exporter_class`` creates use one shared bytecode cache.

    Voila makes a ``VoilaExporter`` (and with it a Jinja environment) for every page, so each
    page parsed and compiled the lab template's files again (a quarter of the server's time
    when a class opened a lesson at once, profiled with py-spy). Only compiled code is shared;
    each page keeps its own environment, filters and globals.
    """
    if getattr(exporter_class, "_tokens_bytecode", None) is not None:
        return
    cache = TemplateBytecode()
    create = exporter_class._create_environment

    def _create_environment(self):
        environment = create(self)
        environment.bytecode_cache = cache
        return environment

    exporter_class._create_environment = _create_environment
    exporter_class._tokens_bytecode = cache


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale_connection_dirs(root: Path, keep: Path | None = None) -> list[Path]:
    """Remove ``voila_*`` folders under ``root`` left by servers that are gone.

    A folder is a server's when it holds ``server.pid``; it is removed when that process is not
    running, or when it has no such file and is older than a day (an older version's).

    Returns:
        list[Path]: the folders removed.
    """
    removed = []
    for folder in sorted(root.glob("voila_*")):
        if keep is not None and folder.resolve() == keep.resolve():
            continue
        try:
            pid = int((folder / "server.pid").read_text().split()[0])
            gone = not _pid_alive(pid)
        except (OSError, ValueError, IndexError):
            try:
                gone = time.time() - folder.stat().st_mtime > 24 * 3600
            except OSError:
                gone = False
        if gone:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


async def stop_everything(state: ServeState, budget: float = STOP_BUDGET_S) -> int:
    """Stop every kernel within ``budget`` seconds: warm kernels (and ones still starting) at
    once, students' kernels by asking them to stop (so what they keep is written), then by a
    signal. No new page or kernel is started meanwhile. Returns how many kernels were running.
    """
    state.stopping = True
    km = state.km
    if km is None:
        return 0
    warm: set[str] = set()
    for pool in getattr(km, "_pools", {}).values():
        for task in pool:
            if is_ready(task):
                content = task.result()
                warm.add(content["kernel_id"])
                if content.get("task") is not None:
                    content["task"].cancel()
            elif not task.done():
                task.cancel()
    if hasattr(km, "_pools"):
        km._pools = {}
    kernel_ids = set(km.list_kernel_ids()) | set(getattr(km, "_pending_kernels", {}))

    async def stop(kernel_id: str) -> None:
        try:
            await km.shutdown_kernel(kernel_id, now=kernel_id not in state.pages)
        except BaseException:  # noqa: BLE001 (gone already, or cancelled at the deadline)
            pass

    tasks = [asyncio.ensure_future(stop(k)) for k in kernel_ids]
    if tasks:
        _, late = await asyncio.wait(tasks, timeout=budget)
        for task in late:
            task.cancel()
        for kernel_id in kernel_ids:  # past the budget: stop what is left hard
            try:
                provisioner = km.get_kernel(kernel_id).provisioner
                if provisioner is not None and provisioner.process is not None:
                    provisioner.process.kill()
            except Exception:  # noqa: BLE001
                pass
    return len(kernel_ids)


def make_app_class(state: ServeState) -> type:
    """``Voila`` with the handlers of :mod:`.pages` and :mod:`.handlers` swapped in (by class,
    so nothing else changes), the kernel status route added, and a clean stop."""
    import voila.app as va
    from voila.request_info_handler import RequestInfoSocketHandler
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
    from voila.static_file_handler import TemplateStaticFileHandler
    from voila.tornado.contentshandler import VoilaContentsHandler
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
    from voila.tornado.treehandler import TornadoVoilaTreeHandler

    swaps = {
        TornadoVoilaHandler: page_handler(TornadoVoilaHandler, state),
        RequestInfoSocketHandler: query_socket_handler(RequestInfoSocketHandler, state),
        VoilaShutdownKernelHandler: shutdown_handler(VoilaShutdownKernelHandler),
        TemplateStaticFileHandler: template_file_handler(TemplateStaticFileHandler),
        TornadoVoilaTreeHandler: hiding_handler(TornadoVoilaTreeHandler, state),
        VoilaContentsHandler: hiding_handler(VoilaContentsHandler, state),
        VoilaKernelWebsocketHandler: kernel_socket_handler(VoilaKernelWebsocketHandler),
    }
    plain: dict[type, type] = {}

    def with_plain_errors(cls: type) -> type:
        if not (isinstance(cls, type) and issubclass(cls, tornado.web.RequestHandler)):
            return cls
        if cls not in plain:
            plain[cls] = type(cls.__name__, (PlainErrors, cls), {})
        return plain[cls]

    class TokensVoila(va.Voila):
        """Voila for ``tokens-edu serve`` (see the module docs for each change)."""

        def init_settings(self):
            # Runs in start(), right after Voila made this server's connection folder.
            folder = Path(self.connection_dir)
            try:
                (folder / "server.pid").write_text(f"{os.getpid()}\n")
            except OSError:
                pass
            for old in clean_stale_connection_dirs(folder.parent, keep=folder):
                log.info("Removed connection files left by a stopped server: %s", old)
            self.log.addFilter(DropKnownNoise())  # the app's own logger
            self.log.addFilter(VOICE)  # what pages send, kept plain and rare (.console)
            for handler in self.log.handlers + logging.getLogger().handlers:
                handler.addFilter(VOICE)
            # A page whose laptop was closed stops answering its websocket's pings: close it
            # after 60 s (the watch then gives its kernel back), not jupyter_server's 90.
            self.tornado_settings = {**self.tornado_settings, "ws_ping_interval": 20000,
                                     "ws_ping_timeout": 60000,
                                     # A page's websocket message is at most 1 MiB (Tornado
                                     # closes a connection that sends more: .limits)
                                     "websocket_max_message_size": WS_MAX_BYTES}
            settings = super().init_settings()
            cm = self.contents_manager
            # Trust is JupyterLab's idea (whether to show a notebook's HTML outputs); Voila runs
            # the notebook either way. Skip the signature check and its warning on every page.
            cm.mark_trusted_cells = lambda nb, path="": cm.notary.mark_cells(nb, True)
            return settings

        def init_handlers(self):
            handlers = []
            for spec in super().init_handlers():
                spec = list(spec)
                if isinstance(spec[0], str) and spec[0].rstrip("/").endswith("/logout"):
                    spec[1] = logout_handler(spec[1])
                spec[1] = with_plain_errors(swaps.get(spec[1], spec[1]))
                handlers.append(tuple(spec))
            status = f"{self.server_url.rstrip('/')}/voila/api/kernel-status/({KERNEL_ID})"
            handlers.insert(0, (status, with_plain_errors(KernelStatusHandler), {"state": state}))
            return handlers

        def listen(self):
            loop = asyncio.get_event_loop()
            loop.call_soon(lambda: asyncio.ensure_future(watch(state)))
            certfile = state.settings.get("certfile")
            if certfile:  # HTTPS (--certfile/--keyfile): Voila 0.5 has no option for it
                import ssl

                context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
                context.load_cert_chain(certfile, state.settings.get("keyfile") or None)
                plain_listen = self.app.listen

                def listen_tls(port, address="", **kwargs):
                    return plain_listen(port, address, ssl_options=context, **kwargs)

                self.app.listen = listen_tls
            return super().listen()

        def _handle_signal_stop(self, sig, frame):
            # Voila stops its loop at once and then stops the kernels from a new one, while warm
            # kernels are still starting (55 ZMQError tracebacks when stopped during warm-up).
            # Here everything stops inside the running loop first, quietly, then the loop.
            if state.stopping:
                return
            state.stopping = True
            self.ioloop.add_callback_from_signal(lambda: asyncio.ensure_future(self._stop_async()))

        async def _stop_async(self):
            _quiet_stop()
            try:
                await stop_everything(state)
            finally:
                self.ioloop.stop()

        def stop(self):
            if state.km is not None and not getattr(self, "_tokens_stopped", False):
                _quiet_stop()
                loop = asyncio.get_event_loop()
                if not loop.is_running() and (state.km.list_kernel_ids() or not state.stopping):
                    loop.run_until_complete(stop_everything(state))
            self._tokens_stopped = True
            shutil.rmtree(self.connection_dir, ignore_errors=True)

    return TokensVoila


def _quiet_stop() -> None:
    """Nothing more on the teacher's console from this process: the launcher says "stopped"."""
    silence()
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (until the process ends)
    except OSError:
        pass
    sys.unraisablehook = lambda unraisable: None


def main(settings: dict | str | None = None, argv: list[str] | None = None) -> int:
    """Run Voila with this package's changes (``python -m tokens_edu.server``).

    Args:
        settings: a dict or a JSON text with keys of :data:`~.state.DEFAULTS`.
        argv: Voila's command line (default: ``sys.argv[1:]``).

    Returns:
        int: Voila's exit code.
    """
    if isinstance(settings, str):
        settings = json.loads(settings)
    state = ServeState(settings or {})
    quiet_logs()
    import jupyter_client.channels
    import voila.app
    import voila.exporter
    import voila.handler
    import voila.voila_kernel_manager as vkm

    jupyter_client.channels.HBChannel.time_to_dead = HEARTBEAT_S
    share_template_bytecode(voila.exporter.VoilaExporter)
    # traitlets warns that a {...} dict on the command line is old style, but it is the only
    # way to give nested values there.
    warnings.filterwarnings("ignore", message="--kernel_pools_config=", category=DeprecationWarning)

    queue = StartQueue(state, float(state.settings["step"]), float(state.settings["first_step"]))
    vkm.wait_before = queue.wait_before
    factory = voila.app.voila_kernel_manager_factory

    def tokens_factory(base_class, preheat_kernel, default_pool_size, *args, **kwargs):
        cls = factory(base_class, preheat_kernel, default_pool_size, *args, **kwargs)
        return kernel_manager(cls, bool(preheat_kernel), queue, state)

    voila.app.voila_kernel_manager_factory = tokens_factory
    renderer = guarded_renderer(voila.handler.NotebookRenderer, state)
    voila.handler.NotebookRenderer = renderer  # a page's own kernel
    vkm.NotebookRenderer = renderer  # warm kernels
    app_class = make_app_class(state)
    app_class.launch_instance(argv=argv)
    return 0
