"""CSV files a spreadsheet opens safely (tokens_edu.store.export), and the journal's export."""

from __future__ import annotations

import pandas as pd
import pytest

from tokens_edu.session.journal import Journal
from tokens_edu.store.schema import COLUMNS


def _url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


def test_export_csv_writes_the_rows(tmp_path):
    url = _url(tmp_path)
    ana = Journal(url, student="Ana", lesson="l1")
    ana.save("Chatbot", 'She said "hi", then\nleft')
    ana.save("Neural Network", "It learns from examples.")
    Journal(url, student="Bo").save("Chatbot", "Bo")
    out = tmp_path / "answers.csv"
    assert ana.export_csv(out) == 2
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")  # a BOM: Excel reads UTF-8 right
    back = pd.read_csv(out, keep_default_na=False)
    assert list(back.columns) == COLUMNS
    assert list(back["answer"]) == ['She said "hi", then\nleft', "It learns from examples."]
    assert set(back["student"]) == {"Ana"}
    assert back["saved_at"].str.endswith("+00:00").all()  # UTC, said so
    assert ana.export_csv(out, all_students=True) == 3
    assert len(pd.read_csv(out)) == 3
    assert ana.export_csv(out, all_students=True, students=["Bo"]) == 1
    assert ana.export_csv(out, all_students=True, lessons=["l1"]) == 2
    assert ana.export_csv(out, all_students=True, lessons=["l1"], students=["Bo"]) == 0


RISKY = ["=HYPERLINK(\"http://x.example\",\"click\")", "+1+1", "-2+3", "@SUM(A1)", "\t=1",
         "\r=1", "\uff1d1+1"]


def test_export_writes_formulas_as_text(tmp_path):
    """A spreadsheet never runs a student's answer (or name) as a formula (issue 9 item 9)."""
    url = _url(tmp_path)
    j = Journal(url, student="=cmd|' /C calc'!A0", lesson="l1")
    for text in RISKY:
        j.save("Chatbot", text)
    j.save("Chatbot", "plain words; = in the middle is fine")
    out = tmp_path / "answers.csv"
    assert j.export_csv(out, all_students=True) == len(RISKY) + 1
    back = pd.read_csv(out, keep_default_na=False, dtype=str)
    assert list(back["answer"]) == ["'" + t for t in RISKY] + ["plain words; = in the middle is fine"]
    assert set(back["student"]) == {"'=cmd|' /C calc'!A0"}
    # no cell of the file starts with a formula character
    import csv as csvmod

    with open(out, encoding="utf-8-sig", newline="") as f:
        cells = [c for row in csvmod.reader(f) for c in row]
    assert not [c for c in cells if c[:1] in "=+-@\t\r\uff1d"]


def test_write_csv_takes_dicts_or_a_frame_and_names_the_file_it_cannot_write(tmp_path):
    from tokens_edu.store.export import spreadsheet_safe, write_csv

    rows = [{"name": "-Ana", "score": 3}, {"name": "Bo", "score": -1}]
    out = tmp_path / "t.csv"
    assert write_csv(rows, out) == 2
    assert out.read_text(encoding="utf-8-sig").splitlines() == ["name,score", "'-Ana,3", "Bo,-1"]
    assert write_csv(pd.DataFrame(rows), out) == 2
    assert spreadsheet_safe(-1) == -1 and spreadsheet_safe("") == "" and spreadsheet_safe("a") == "a"
    with pytest.raises(ValueError, match="Cannot write .*no"):
        write_csv(rows, tmp_path / "no" / "t.csv")


def test_export_to_a_missing_folder_is_a_plain_error(tmp_path):
    j = Journal(_url(tmp_path), student="Ana")
    with pytest.raises(ValueError, match="Cannot write"):
        j.export_csv(tmp_path / "no" / "such" / "dir" / "a.csv")
