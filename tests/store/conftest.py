"""Every store test starts clean: no JupyterHub login, database URL, page query or warm kernel of
the machine's, answers in a throwaway data folder, and no remembered page query."""

from __future__ import annotations

import pytest

from tokens_edu.session import address as identity


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path):
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL", "TOKENS_EDU_DB_PASSWORD", "PGPASSWORD",
                "QUERY_STRING", "VOILA_PREHEAT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(identity, "_query_cache", None)
