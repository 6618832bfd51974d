"""steplib is the part of the conformance suite's Python step scripts that
does not depend on an SDK: running a step, printing its result as one JSON
line, and writing property values in a form both servers' answers can be
compared in (no timestamps, ETags or request ids)."""

import base64
import datetime
import json
import os
import re
import sys
import uuid


def settings():
    """Returns (connection string, settings dict, table name prefix) from
    TABLESTRESS_CONN and TABLESTRESS_PREFIX."""
    conn = os.environ.get("TABLESTRESS_CONN")
    prefix = os.environ.get("TABLESTRESS_PREFIX")
    if not conn or not prefix:
        print(sys.argv[0] + ": set TABLESTRESS_CONN and TABLESTRESS_PREFIX", file=sys.stderr)
        sys.exit(2)
    kv = dict(p.split("=", 1) for p in conn.split(";") if "=" in p)
    return conn, kv, prefix


def failure(e):
    """An SDK error as the suite compares it: status, error code and the
    failing operation's index of a transaction ("1:..." messages)."""
    out = {"status": getattr(e, "status_code", None) or "none"}
    if out["status"] == "none":
        out["type"] = type(e).__name__  # raised by the SDK itself, for example from an error code it knows
    text = str(e)
    code = getattr(e, "error_code", None)
    if code is not None and not isinstance(code, str):
        code = getattr(code, "value", str(code))
    if not code:
        m = re.search(r'"code"\s*:\s*"([A-Za-z]+)"', text) or re.search(r"ErrorCode:([A-Za-z]+)", text)
        code = m.group(1) if m else None
    if code:
        out["code"] = code
    m = re.search(r'(?:^|\n|"|\')(\d+):', text)
    if m:
        out["index"] = int(m.group(1))
    return out


def step(name, fn):
    """Runs fn and prints {"step": name, "result": ...}: what fn returns
    ("ok" for None), or the error it raised."""
    try:
        result = fn()
        if result is None:
            result = "ok"
    except Exception as e:  # every SDK error is a result to compare
        result = {"error": failure(e)}
    print(json.dumps({"step": name, "result": result}, ensure_ascii=False, sort_keys=True), flush=True)


def value(v):
    """One property value as "type:value"; EntityProperty-like values
    (with .value and .edm_type or .type) by their EDM type."""
    edm = getattr(v, "edm_type", None) or getattr(v, "type", None)
    if edm is not None and hasattr(v, "value"):
        return "%s:%s" % (getattr(edm, "value", edm), plain(v.value))
    return "%s:%s" % (type(v).__name__, plain(v))


def plain(v):
    if isinstance(v, (bytes, bytearray)):
        return base64.b64encode(bytes(v)).decode()
    if isinstance(v, datetime.datetime):
        return v.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(v, uuid.UUID):
        return str(v)
    return v


def props(entity, skip=("Timestamp", "etag")):
    """An entity's properties as {name: "type:value"}."""
    return {k: value(v) for k, v in sorted(entity.items()) if k not in skip}


# The data of the steps every SDK runs, so the scripts run the same sequence.
KEYS = [
    ("empty keys", "", ""),
    ("unicode keys", "ü日本", "🙂"),
    ("quoted keys", "it's", "o''clock"),
    ("spaced keys", "a b", " c "),
    ("percent and plus keys", "100%", "a+b"),
]
FORBIDDEN_KEYS = [("slash", "a/b"), ("hash", "a#b"), ("question mark", "a?b"), ("backslash", "a\\b")]
FILTERS = [
    ("filter Int32 range", "I ge 37 and I lt 39"),
    ("filter string or", "(S eq 's1' or S eq 's2') and PartitionKey eq 'p3' and I lt 8"),
    ("filter not", "not (I lt 39)"),
    ("filter RowKey range", "PartitionKey eq 'p2' and RowKey gt '036'"),
    ("filter missing property", "Nope eq 1"),
]
SAS_ROWS = [("a", "1"), ("b", "1"), ("b", "3"), ("c", "1"), ("e", "1")]


def paging_summary(sizes, got):
    """The paging step's result from the page sizes and the keys in order."""
    return {"pages": sizes, "total": len(got), "first": got[0], "last": got[-1], "sorted": got == sorted(got)}
