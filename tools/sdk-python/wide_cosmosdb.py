"""wide_cosmosdb.py: the wider steps of steps_cosmosdb.py (the legacy
azure.cosmosdb.table SDK): EDM edge values, filters on every type and
operator (tools/steps-data.json), $select of missing properties, paging
across pages and partitions, table listing, a malformed If-Match, service
properties and CORS rules. Its transactions are not widened:
Azurite answers every transaction of this SDK with 500 (see
sdk_differences_test.go), so they would compare nothing."""

import base64
import datetime
import json
import math

from azure.cosmosdb.table.common.models import CorsRule, Logging, Metrics, RetentionPolicy
from azure.cosmosdb.table.models import EdmType, EntityProperty

from steplib import props, step

UTC = datetime.timezone.utc
DATA = json.load(open(__file__.rsplit("/", 1)[0] + "/../steps-data.json", encoding="utf-8"))

EDGES = [
    ("Int64 maximum", EntityProperty(EdmType.INT64, 9223372036854775807)),
    ("Int64 minimum", EntityProperty(EdmType.INT64, -9223372036854775808)),
    ("Int32 minimum", -2147483648),
    ("Double NaN", math.nan),
    ("Double Infinity", math.inf),
    ("Double -0", -0.0),
    ("Double maximum", 1.7976931348623157e308),
    ("DateTime before 1900", datetime.datetime(1850, 6, 30, 12, tzinfo=UTC)),
    ("DateTime before 1601", datetime.datetime(1600, 12, 31, 23, 59, 59, tzinfo=UTC)),
    ("Binary of 65536 bytes", EntityProperty(EdmType.BINARY, bytes(i % 251 for i in range(65536)))),
    ("String outside the basic plane", "\U0001D11E\U0001F600 a"),
    ("Boolean false", False),
]


def typed(typ, v):
    """A value of tools/steps-data.json (JSON text) as the legacy SDK takes
    it: a DateTime as a datetime, to the microsecond (all Python keeps), a
    Binary as bytes, the others as their text."""
    if typ == "Edm.DateTime":
        whole, _, frac = v.rstrip("Z").partition(".")
        t = datetime.datetime.strptime(whole, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
        return EntityProperty(EdmType.DATETIME, t.replace(microsecond=int((frac + "000000")[:6])))
    if typ == "Edm.Binary":
        return EntityProperty(EdmType.BINARY, base64.b64decode(v))
    return EntityProperty(typ, v)


def brief(p):
    return {k: "%s...(%d)...%s" % (v[:30], len(v), v[-20:]) if isinstance(v, str) and len(v) > 80 else v for k, v in p.items()}


def wide(ctx):
    svc, t = ctx["svc"], ctx["t"]
    vals, filt, pages = t("values"), t("filters"), t("pages")
    step("values table", lambda: svc.create_table(vals, fail_on_exist=True) and None)
    for i, (name, val) in enumerate(EDGES):
        rk = "%03d" % i
        step("insert " + name, lambda: svc.insert_entity(vals, {"PartitionKey": "edge", "RowKey": rk, "V": val}) and None)
        step("read " + name, lambda: brief(props(svc.get_entity(vals, "edge", rk))))
    for name, pk, rk in [("keys outside the basic plane", "\U0001D11E", "\U0001F600x"), ("RowKey of 400 CJK characters", "cjk", "\u65e5" * 400)]:
        step("insert " + name, lambda: svc.insert_entity(vals, {"PartitionKey": pk, "RowKey": rk, "V": 1}) and None)
        step("read " + name, lambda: brief(props(svc.get_entity(vals, pk, rk))))
    step("insert without a RowKey", lambda: svc.insert_entity(vals, {"PartitionKey": "raw", "V": 1}) and None)

    def seed():
        svc.create_table(filt, fail_on_exist=True)
        for row in DATA["filterRows"]:
            # An integer without annotation is an Int32, as the other SDKs
            # send it: the legacy SDK would make every int an Int64.
            ent = {k: EntityProperty(EdmType.INT32, v) if type(v) is int else v for k, v in row.items() if "@" not in k}
            for k, typ in ((k[:-len("@odata.type")], v) for k, v in row.items() if k.endswith("@odata.type")):
                ent[k] = typed(typ, row[k])
            svc.insert_entity(filt, ent)
    step("filters setup", seed)

    def keys(flt):
        return ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in svc.query_entities(filt, flt)]
    for name, literal in DATA["typedFilters"]:
        for op in DATA["operators"]:
            step("filter %s %s" % (name, op), lambda: keys("%s %s %s" % (name, op, literal)))
    for name, flt in DATA["filters"]:
        step(name, lambda: keys(flt))
    for name, select in DATA["selects"]:
        step(name, lambda: [props(e) for e in svc.query_entities(filt, "PartitionKey eq 'f'", select=",".join(select))])
    step("point read selecting a missing property", lambda: props(svc.get_entity(filt, "f", "5", select="Nope")))

    def seed_pages():
        svc.create_table(pages, fail_on_exist=True)
        for part in range(3):  # one by one: Azurite answers every transaction of this SDK with 500
            for i in range(30):
                svc.insert_entity(pages, {"PartitionKey": "p%d" % part, "RowKey": "%03d" % i, "I": i})
    step("pages setup", seed_pages)

    def walk(flt, size):
        sizes, got, marker = [], [], None
        while True:
            page = svc.query_entities(pages, flt, num_results=size, marker=marker)
            items = list(page)
            sizes.append(len(items))
            got += ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in items]
            marker = page.next_marker
            if not marker:
                return {"pages": len(sizes), "sizes": sorted(set(sizes)), "total": len(got), "distinct": len(set(got)), "sorted": got == sorted(got)}
    step("pages of 7 over 3 partitions", lambda: walk(None, 7))
    step("pages of 1 in one partition", lambda: walk("PartitionKey eq 'p1'", 1))
    step("pages of 4 with a filter across partitions", lambda: walk("I ge 10 and I lt 15", 4))

    def listed():
        return sorted(tb.name[len(ctx["prefix"]):] for tb in svc.list_tables(num_results=2) if tb.name.startswith(ctx["prefix"]))
    step("list tables by pages of 2", listed)

    sent = svc.insert_entity(vals, {"PartitionKey": "im", "RowKey": "1", "V": 1})
    for name, if_match in [("quoted", '"wrong"'), ("unquoted", "wrong"), ("a strong datetime ETag", sent.replace("W/", ""))]:
        step("update with If-Match " + name, lambda: svc.merge_entity(vals, {"PartitionKey": "im", "RowKey": "1", "V": 2}, if_match=if_match) and None)
    rule = CorsRule(["https://app.example"], ["GET", "PUT"], max_age_in_seconds=600, exposed_headers=["x-ms-request-id"], allowed_headers=["content-type"])
    step("set service properties", lambda: svc.set_table_service_properties(
        logging=Logging(read=True, delete=True, retention_policy=RetentionPolicy(enabled=True, days=3)),
        hour_metrics=Metrics(enabled=True, include_apis=True, retention_policy=RetentionPolicy(enabled=True, days=7)), cors=[rule]))

    def get_props():
        p = svc.get_table_service_properties()
        return {"logging": [p.logging.read, p.logging.write, p.logging.delete, p.logging.retention_policy.days],
                "hour": [p.hour_metrics.enabled, p.hour_metrics.include_apis, p.hour_metrics.retention_policy.days],
                "cors": [[r.allowed_origins, r.allowed_methods, r.max_age_in_seconds] for r in p.cors]}
    step("get service properties", get_props)
    step("remove CORS rules", lambda: svc.set_table_service_properties(cors=[]))
    def drop():
        for n in (vals, filt, pages):
            svc.delete_table(n, fail_not_exist=True)
    step("delete wide tables", drop)
