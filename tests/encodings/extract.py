"""Parses documents of the encodings spec (tests/encodings/spec.json) with the generated Python package
and prints what it built, for tests/test_encodings.py: bytes as hex, date-times as their instant and
offset, numbers as repr writes them, and the document as to_json writes it.

Run with -S and the package's folder on PYTHONPATH. stdin: ["JSON text", ...];
stdout: [{"ok": true, ...} | {"ok": false, "errors": [[path, message]]}].
"""

import json
import sys
from datetime import datetime, timedelta, timezone

from chatformats import encodings

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def instant(value: datetime) -> list[int]:
    """[Unix seconds, nanoseconds, offset from UTC in seconds]."""
    whole = (value - EPOCH) // timedelta(seconds=1)
    offset = value.utcoffset()
    assert offset is not None, f"a naive date-time was built: {value!r}"
    return [whole, value.microsecond * 1000, int(offset.total_seconds())]


def built(text: str) -> dict:
    try:
        doc = encodings.parse_encodings_from_json(text)
    except encodings.ValidationError as exc:
        return {"ok": False, "errors": [[e.path, e.message] for e in exc.errors]}
    out: dict = {"ok": True, "encoded": doc.to_json()}
    if doc.blob is not None:
        out["blob"] = doc.blob.hex()
    if doc.blobs is not None:
        out["blobs"] = [b.hex() for b in doc.blobs]
    if doc.at is not None:
        out["at"] = instant(doc.at)
    if doc.ats is not None:
        out["ats"] = [instant(t) for t in doc.ats]
    if doc.n is not None:
        out["n"] = repr(doc.n)
    if doc.i is not None:
        out["i"] = str(doc.i)
    if doc.ns is not None:
        out["ns"] = [repr(x) for x in doc.ns]
    return out


print(json.dumps([built(t) for t in json.load(sys.stdin)]))
