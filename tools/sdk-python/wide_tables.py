"""wide_tables.py: the wider steps of steps_tables.py (azure.data.tables):
values at every EDM type's edges and as hand-written JSON, queries (filters
on every type and operator, missing properties, $select, $top, paging,
table name ranges), transactions mixing every operation, and requests
no entity call makes (malformed If-Match, x-ms-version, service
properties and statistics, CORS, SAS details). Cases shared with the
JavaScript script come from tools/steps-data.json."""

import datetime
import json
import math

from azure.data.tables import EdmType, EntityProperty

from restlib import DATA, answer, raw_props, request
from steplib import props, step

UTC = datetime.timezone.utc


def brief(p):
    """Keeps a long value's length and ends, so a step line stays short."""
    out = {}
    for k, v in p.items():
        out[k] = "%s...(%d)...%s" % (v[:30], len(v), v[-20:]) if isinstance(v, str) and len(v) > 80 else v
    return out


EDGES = [
    ("Int64 maximum", EntityProperty(9223372036854775807, EdmType.INT64)),
    ("Int64 minimum", EntityProperty(-9223372036854775808, EdmType.INT64)),
    ("Int32 minimum", -2147483648),
    ("Double NaN", math.nan),
    ("Double Infinity", math.inf),
    ("Double -Infinity", -math.inf),
    ("Double -0", -0.0),
    ("Double maximum", 1.7976931348623157e308),
    ("Double smallest subnormal", 5e-324),
    ("DateTime to 1 us", datetime.datetime(2025, 2, 4, 9, 10, 11, 123456, tzinfo=UTC)),
    ("DateTime before 1900", datetime.datetime(1850, 6, 30, 12, tzinfo=UTC)),
    ("DateTime minimum", datetime.datetime(1601, 1, 1, tzinfo=UTC)),
    ("DateTime before 1601", datetime.datetime(1600, 12, 31, 23, 59, 59, tzinfo=UTC)),
    ("Binary of 65536 bytes", bytes(i % 251 for i in range(65536))),
    ("Binary empty", EntityProperty(b"", EdmType.BINARY)),
    ("String outside the basic plane", "\U0001D11E\U0001F600 a"),
    ("String of 16384 characters outside the basic plane", "\U0001F600" * 16384),
    ("String of 16385 characters outside the basic plane", "\U0001F600" * 16385),
    ("String empty", ""),
    ("Boolean false", False),
]

KEYS = [
    ("keys outside the basic plane", "\U0001D11E", "\U0001F600x"),
    ("RowKey of 400 CJK characters", "cjk", "\u65e5" * 400),
    ("RowKey of 512 characters", "len", "r" * 512),
    ("RowKey of 513 characters", "len", "s" * 513),
    ("RowKey of 1024 characters", "len", "t" * 1024),
    ("RowKey of 1025 characters", "len", "u" * 1025),
]


def values(ctx):
    v = ctx["table"](ctx["t"]("values"))
    step("values table", lambda: v.create_table() and None)
    for i, (name, val) in enumerate(EDGES):
        rk = "%03d" % i
        step("insert " + name, lambda: v.create_entity({"PartitionKey": "edge", "RowKey": rk, "V": val}) and None)
        step("read " + name, lambda: brief(props(v.get_entity("edge", rk))))
    for name, pk, rk in KEYS:
        step("insert " + name, lambda: v.create_entity({"PartitionKey": pk, "RowKey": rk, "V": 1}) and None)
        step("read " + name, lambda: brief(props(v.get_entity(pk, rk))))
    url = "%s/%s" % (ctx["endpoint"], ctx["t"]("values"))
    for i, (name, members) in enumerate(DATA["rawBodies"]):
        rk = "%03d" % i
        body = '{"PartitionKey":"raw","RowKey":"%s",%s}' % (rk, members)
        step("raw insert " + name, lambda: answer(request(v, "POST", url, {"Prefer": "return-no-content"}, body)))

        def read():
            res = request(v, "GET", "%s(PartitionKey='raw',RowKey='%s')" % (url, rk), {"Accept": "application/json;odata=minimalmetadata"})
            return raw_props(res.text()) if res.status_code == 200 else answer(res)
        step("raw read " + name, read)
    step("raw insert without a RowKey", lambda: answer(request(v, "POST", url, body='{"PartitionKey":"raw","V":1}')))
    step("raw insert without a PartitionKey", lambda: answer(request(v, "POST", url, body='{"RowKey":"nopk","V":1}')))
    step("raw insert with a null RowKey", lambda: answer(request(v, "POST", url, body='{"PartitionKey":"raw","RowKey":null}')))
    step("delete values table", lambda: v.delete_table())


def queries(ctx):
    t, table = ctx["t"], ctx["table"]
    f = table(t("filters"))
    url = "%s/%s" % (ctx["endpoint"], t("filters"))

    def setup():
        f.create_table()
        return [request(f, "POST", url, {"Prefer": "return-no-content"}, json.dumps(r, ensure_ascii=False)).status_code for r in DATA["filterRows"]]
    step("filters setup", setup)

    def keys(flt):
        return ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in f.query_entities(flt)]
    for name, literal in DATA["typedFilters"]:
        for op in DATA["operators"]:
            step("filter %s %s" % (name, op), lambda: keys("%s %s %s" % (name, op, literal)))
    for name, flt in DATA["filters"]:
        step(name, lambda: keys(flt))
    for name, select in DATA["selects"]:
        step(name, lambda: [props(e) for e in f.query_entities("PartitionKey eq 'f'", select=select)])
    step("point read selecting a missing property", lambda: props(f.get_entity("f", "5", select=["Nope"])))
    step("raw select only a missing property",
         lambda: answer(request(f, "GET", url + "()?$filter=RowKey%20eq%20'4'&$select=Nope,Gone"), body=True))
    for name, top in [("$top=0", "0"), ("$top=-1", "-1"), ("$top=abc", "abc"), ("$top=1000", "1000"), ("$top=1001", "1001")]:
        def raw_top():
            a = answer(request(f, "GET", "%s()?$top=%s" % (url, top)), body=True)
            if isinstance(a.get("body"), dict) and "value" in a["body"]:
                a["body"] = ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in a["body"]["value"]]
            return a
        step("raw query " + name, raw_top)
    step("delete filters table", lambda: f.delete_table())
