"""CSV files a spreadsheet opens safely (answers, games, any table).

A student's answer may start with ``=`` or ``+``: opened in Excel, LibreOffice or Google Sheets,
that cell would run as a formula ("CSV injection"). :func:`write_csv` writes every text cell so
that it shows as text (:func:`spreadsheet_safe`), in UTF-8 with a byte order mark (so Excel
reads accents and emoji right), one line per row, a line break inside an answer kept in its cell.
"""

from __future__ import annotations

import csv
import os
from datetime import datetime, timezone

__all__ = ["spreadsheet_safe", "write_csv"]


def spreadsheet_safe(value: object) -> object:
    """``value`` as a spreadsheet will show it as text: a str that starts with ``=``, ``+``,
    ``-``, ``@`` (or their full-width forms), a tab or a carriage return gets a leading
    apostrophe, so Excel, LibreOffice and Google Sheets never run it as a formula (OWASP's
    "CSV injection" advice). Anything else is returned unchanged.
    """
    if isinstance(value, str) and value and value[0] in "=+-@\t\r\uff1d\uff0b\uff0d\uff20":
        return "'" + value
    return value


def write_csv(rows, file, columns: list[str] | None = None) -> int:
    """Write a table as a CSV file that a spreadsheet opens safely.

    UTF-8 with a byte order mark, a header line, one line per row (CRLF line ends); every text
    cell goes through :func:`spreadsheet_safe`. Dates are written in ISO form
    (``2026-11-12 10:42:05+00:00``; a time without a zone is taken as UTC, as the store writes).

    Args:
        rows: a pandas DataFrame, or an iterable of dicts (one per row).
        file: a path (str or Path; replaced if it exists) or an open text file.
        columns: the columns in order; default: the DataFrame's, or the first dict's keys.

    Returns:
        int: how many rows were written.

    Raises:
        ValueError: the file cannot be written (the message names it).
    """
    if hasattr(rows, "to_dict") and hasattr(rows, "columns"):
        columns = list(columns or rows.columns)
        records = rows.to_dict("records")
    else:
        records = [dict(r) for r in rows]
        columns = list(columns or (records[0].keys() if records else []))

    def cell(v):
        if v is None or (isinstance(v, float) and v != v):
            return ""
        if isinstance(v, datetime):  # pandas Timestamps too
            if v.tzinfo is None:
                v = v.replace(tzinfo=timezone.utc)
            return v.isoformat(sep=" ", timespec="seconds")
        return spreadsheet_safe(v)

    def write(out) -> None:
        w = csv.writer(out, lineterminator="\r\n")
        w.writerow([spreadsheet_safe(c) for c in columns])
        for r in records:
            w.writerow([cell(r.get(c)) for c in columns])

    if isinstance(file, (str, os.PathLike)):
        try:
            with open(file, "w", encoding="utf-8-sig", newline="") as out:
                write(out)
        except OSError as e:
            raise ValueError(f"Cannot write {file}: {e.strerror or e}.") from None
    else:
        write(file)
    return len(records)
