"""The Zero to JupyterHub values agree with the one-machine JupyterHub config (which
tests/test_hub.py runs for real): same Voila options, same proxy flags, culling on, roles."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
VALUES = yaml.safe_load((ROOT / "deploy" / "z2jh" / "values.yaml").read_text(encoding="utf-8"))
HUB_CONFIG = (ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py").read_text(encoding="utf-8")


def _hub_config_args() -> list:
    """The literal ``c.Spawner.args`` list of jupyterhub_config.py (names shown as their names)."""
    for node in ast.walk(ast.parse(HUB_CONFIG)):
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Attribute)
                and ast.unparse(node.targets[0]) == "c.Spawner.args"):
            return [elt.value if isinstance(elt, ast.Constant) else ast.unparse(elt)
                    for elt in node.value.elts]
    raise AssertionError("no c.Spawner.args in jupyterhub_config.py")


def test_students_pods_run_voila_behind_the_standalone_proxy_as_on_one_machine():
    spawner = VALUES["hub"]["config"]["KubeSpawner"]
    assert spawner["cmd"] == ["jupyter-standaloneproxy"]
    one_machine = _hub_config_args()
    z2jh = spawner["args"]
    # the same proxy flags and Voila options; only the Python and the lessons folder differ
    assert one_machine[:one_machine.index("--")] == z2jh[:z2jh.index("--")]
    assert "--activity-interval=0" in z2jh
    tail = lambda args: [a for a in args[args.index("voila") + 2:]]  # noqa: E731
    assert one_machine[one_machine.index("-m") + 1] == "voila"
    assert tail(one_machine) == tail(z2jh)


def test_culling_placeholders_memory_and_roles():
    assert VALUES["cull"]["enabled"] is True and VALUES["cull"]["timeout"] > 0
    assert VALUES["scheduling"]["userPlaceholder"]["enabled"] is True
    mem = VALUES["singleuser"]["memory"]
    assert mem["guarantee"] and mem["limit"]
    role = VALUES["hub"]["loadRoles"]["teacher-dashboard"]
    assert role["groups"] == ["teachers"] and role["scopes"] == ["access:services!service=teacher"]
    assert VALUES["hub"]["config"]["JupyterHub"]["allow_named_servers"] is False


def test_extra_config_is_python_and_puts_no_password_in_a_url():
    code = VALUES["hub"]["extraConfig"]["tokens-edu"]
    compile(code, "values.yaml hub.extraConfig", "exec")
    assert "TOKENS_EDU_DB_PASSWORD" in code and "pre_spawn_hook" in code
    url = VALUES["hub"]["extraEnv"]["TOKENS_EDU_DB_URL"]
    assert ":" not in url.split("://", 1)[1].split("@", 1)[0]  # user only, no password
    secret = VALUES["hub"]["extraEnv"]["TOKENS_EDU_DB_PASSWORD"]
    assert "secretKeyRef" in secret["valueFrom"]


def test_the_dashboards_hub_login_is_used_only_when_the_hub_started_it(monkeypatch):
    import pytest

    from tokens_edu.teacher.hub_auth import HubTeacherAuth, running_as_hub_service

    for var in ("JUPYTERHUB_SERVICE_NAME", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_CLIENT_ID"):
        monkeypatch.delenv(var, raising=False)
    assert not running_as_hub_service()
    with pytest.raises(ValueError, match="started by JupyterHub"):
        HubTeacherAuth()
    monkeypatch.setenv("JUPYTERHUB_SERVICE_NAME", "teacher")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "t")
    assert not running_as_hub_service()  # no OAuth client: not a usable Hub login
    monkeypatch.setenv("JUPYTERHUB_CLIENT_ID", "service-teacher")
    assert running_as_hub_service()
