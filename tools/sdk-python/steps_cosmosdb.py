"""steps_cosmosdb.py runs the conformance suite's sequence of steps with the
legacy Azure Table Python SDK (azure.cosmosdb.table 1.0.5, Debian's
python3-azure-cosmosdb-table), which many existing tools still use,
against the Table service of a connection string, printing one JSON line
per step. The Go test pkg/emulator/sdk_conformance_test.go runs it against
Azurite and the embedded service and diffs the lines.

Usage: TABLESTRESS_CONN=... TABLESTRESS_PREFIX=abc /usr/bin/python3 steps_cosmosdb.py
"""

import datetime
import json

from azure.cosmosdb.table.common.models import AccessPolicy, AccountPermissions, ResourceTypes
from azure.cosmosdb.table.common.retry import no_retry
from azure.cosmosdb.table.models import EdmType, EntityProperty, TablePermissions
from azure.cosmosdb.table.tablebatch import TableBatch
from azure.cosmosdb.table.tableservice import TableService

import wide_cosmosdb
from steplib import FILTERS, FORBIDDEN_KEYS, KEYS, SAS_ROWS, failure, paging_summary, props, settings, step

conn, kv, prefix = settings()
endpoint = kv["TableEndpoint"]
UTC = datetime.timezone.utc


def service(connection_string):
    s = TableService(connection_string=connection_string)
    s.retry = no_retry
    return s


svc = service(conn)


def sas_service(sas):
    return service("TableEndpoint=%s;SharedAccessSignature=%s" % (endpoint, sas))


def keys(entities):
    return ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in entities]


def entity_props(e):
    return props(e, skip=("Timestamp", "etag"))


def t(s):
    return prefix + s


main = t("main")
step("create table", lambda: svc.create_table(main, fail_on_exist=True) and None)
step("create table twice", lambda: svc.create_table(main, fail_on_exist=True) and None)
step("create table 1bad", lambda: svc.create_table("1bad", fail_on_exist=True) and None)
step("table exists", lambda: [svc.exists(main), svc.exists(t("missing"))])


def list_tables():
    svc.create_table(t("other"), fail_on_exist=True)
    return sorted(tb.name[len(prefix):] for tb in svc.list_tables() if tb.name.startswith(prefix))


step("list tables by name", list_tables)

edm = {
    "PartitionKey": "edm",
    "RowKey": "all",
    "Str": "text ü 🙂",
    "Int32": 2147483647,
    "Int64": EntityProperty(EdmType.INT64, 9007199254740993),
    "Double": 1.5,
    "WholeDouble": EntityProperty(EdmType.DOUBLE, 2.0),
    "Bool": True,
    "Date": datetime.datetime(2025, 2, 4, 9, 10, 11, tzinfo=UTC),
    "Guid": EntityProperty(EdmType.GUID, "0f8fad5b-d9cb-469f-a165-70867728950e"),
    "Bin": EntityProperty(EdmType.BINARY, bytes([0, 1, 2, 254, 255])),
}
step("insert every EDM type", lambda: svc.insert_entity(main, edm) and None)
step("read every EDM type", lambda: entity_props(svc.get_entity(main, "edm", "all")))

for name, pk, rk in KEYS:
    step("insert " + name, lambda: svc.insert_entity(main, {"PartitionKey": pk, "RowKey": rk, "V": 1}) and None)
    step("read " + name, lambda: entity_props(svc.get_entity(main, pk, rk)))
for name, pk in FORBIDDEN_KEYS:
    step("insert a key with a " + name, lambda: svc.insert_entity(main, {"PartitionKey": pk, "RowKey": "x"}) and None)


def etags():
    out = []
    stale = svc.insert_entity(main, {"PartitionKey": "etag", "RowKey": "1", "V": 1})
    svc.update_entity(main, {"PartitionKey": "etag", "RowKey": "1", "V": 2}, if_match=stale)
    out.append("update with etag ok")
    for what, f in [
        ("update stale", lambda: svc.merge_entity(main, {"PartitionKey": "etag", "RowKey": "1", "V": 3}, if_match=stale)),
        ("delete stale", lambda: svc.delete_entity(main, "etag", "1", if_match=stale)),
        ("update missing", lambda: svc.merge_entity(main, {"PartitionKey": "etag", "RowKey": "none", "V": 3})),
        ("insert existing", lambda: svc.insert_entity(main, {"PartitionKey": "etag", "RowKey": "1"})),
        ("delete any", lambda: svc.delete_entity(main, "etag", "1")),
        ("delete missing", lambda: svc.delete_entity(main, "etag", "none")),
    ]:
        try:
            f()
            out.append(what + " ok")
        except Exception as e:
            out.append("%s %s" % (what, json.dumps(failure(e), sort_keys=True)))
    return out


step("etag conditions", etags)


def upserts():
    svc.insert_or_merge_entity(main, {"PartitionKey": "up", "RowKey": "1", "A": 1})
    svc.insert_or_merge_entity(main, {"PartitionKey": "up", "RowKey": "1", "B": 2})
    merged = entity_props(svc.get_entity(main, "up", "1"))
    svc.insert_or_replace_entity(main, {"PartitionKey": "up", "RowKey": "1", "C": 3})
    replaced = entity_props(svc.get_entity(main, "up", "1"))
    svc.merge_entity(main, {"PartitionKey": "up", "RowKey": "1", "D": 4})
    return {"merged": merged, "replaced": replaced, "updated": entity_props(svc.get_entity(main, "up", "1"))}


step("upserts", upserts)


def commit(*ops):
    b = TableBatch()
    for op, arg in ops:
        if op == "delete":
            b.delete_entity(*arg)
        else:
            getattr(b, op)(arg)
    svc.commit_batch(main, b)


def batch_all():
    for rk in ["um", "ur", "d"]:
        svc.insert_entity(main, {"PartitionKey": "batch", "RowKey": rk, "Old": 1})
    commit(
        ("insert_entity", {"PartitionKey": "batch", "RowKey": "c", "V": 1}),
        ("merge_entity", {"PartitionKey": "batch", "RowKey": "um", "V": 1}),
        ("update_entity", {"PartitionKey": "batch", "RowKey": "ur", "V": 1}),
        ("insert_or_merge_entity", {"PartitionKey": "batch", "RowKey": "sm", "V": 1}),
        ("insert_or_replace_entity", {"PartitionKey": "batch", "RowKey": "sr", "V": 1}),
        ("delete", ("batch", "d")),
    )
    return {e["RowKey"]: entity_props(e) for e in svc.query_entities(main, "PartitionKey eq 'batch'")}


step("batch of every operation", batch_all)
step("batch failing in the middle", lambda: commit(
    ("insert_entity", {"PartitionKey": "batch", "RowKey": "n1"}),
    ("insert_entity", {"PartitionKey": "batch", "RowKey": "c"}),
    ("delete", ("batch", "um")),
))
step("batch failing in the middle wrote nothing", lambda: keys(svc.query_entities(main, "PartitionKey eq 'batch'")))
step("batch over two partitions", lambda: commit(
    ("insert_entity", {"PartitionKey": "batch", "RowKey": "two1"}),
    ("insert_entity", {"PartitionKey": "batch2", "RowKey": "two2"}),
))

paging = t("paging")


def paging_across():
    svc.create_table(paging, fail_on_exist=True)
    for pk in ["p1", "p2", "p3"]:  # one by one: Azurite answers every transaction of this SDK with 500
        for i in range(40):
            svc.insert_entity(paging, {"PartitionKey": pk, "RowKey": "%03d" % i, "I": i, "S": "s%d" % (i % 4)})
    sizes, got, marker = [], [], None
    while True:
        page = svc.query_entities(paging, num_results=25, marker=marker)
        items = list(page)
        sizes.append(len(items))
        got += keys(items)
        marker = page.next_marker
        if not marker:
            break
    return paging_summary(sizes, got)


step("paging across partitions", paging_across)
step("$top", lambda: keys(svc.query_entities(paging, "PartitionKey eq 'p2'", num_results=3)))
step("$select", lambda: [entity_props(e) for e in svc.query_entities(paging, "PartitionKey eq 'p1' and RowKey lt '002'", select="I")])
for name, flt in FILTERS:
    step(name, lambda: keys(svc.query_entities(paging, flt)))

step("string of 32768 characters", lambda: svc.insert_entity(main, {"PartitionKey": "lim", "RowKey": "s1", "S": "x" * 32768}) and None)
step("string of 32769 characters", lambda: svc.insert_entity(main, {"PartitionKey": "lim", "RowKey": "s2", "S": "x" * 32769}) and None)
step("property name of 256 characters", lambda: svc.insert_entity(main, {"PartitionKey": "lim", "RowKey": "n", "n" * 256: 1}) and None)
big = {"PartitionKey": "lim", "RowKey": "big"}
big.update({"S%d" % i: "x" * 32768 for i in range(16)})
step("entity over 1 MiB", lambda: svc.insert_entity(main, big) and None)

# SAS and ACL, on a table of their own.
sas_name = t("sas")


def sas_setup():
    svc.create_table(sas_name, fail_on_exist=True)
    for pk, rk in SAS_ROWS:
        svc.insert_entity(sas_name, {"PartitionKey": pk, "RowKey": rk})


step("SAS setup", sas_setup)
hour = datetime.datetime.now(UTC) + datetime.timedelta(hours=1)
range_sas = svc.generate_table_shared_access_signature(sas_name, TablePermissions(query=True, add=True), hour,
                                                       protocol="https,http", start_pk="b", start_rk="2", end_pk="d")
step("table SAS query", lambda: keys(sas_service(range_sas).query_entities(sas_name)))
step("table SAS insert in range", lambda: sas_service(range_sas).insert_entity(sas_name, {"PartitionKey": "c", "RowKey": "2"}) and None)
step("table SAS insert out of range", lambda: sas_service(range_sas).insert_entity(sas_name, {"PartitionKey": "z", "RowKey": "1"}) and None)
step("table SAS delete without d", lambda: sas_service(range_sas).delete_entity(sas_name, "c", "1"))
expired = svc.generate_table_shared_access_signature(sas_name, TablePermissions(query=True),
                                                     datetime.datetime.now(UTC) - datetime.timedelta(minutes=1), protocol="https,http")
step("expired table SAS", lambda: keys(sas_service(expired).query_entities(sas_name)))
read_list = svc.generate_account_shared_access_signature(ResourceTypes(service=True, container=True, object=True),
                                                         AccountPermissions(read=True, list=True), hour, protocol="https,http")


def sas_t_names(sas):
    return sorted(tb.name[len(prefix):] for tb in sas_service(sas).list_tables() if tb.name.startswith(prefix))


step("account SAS lists tables", lambda: sas_t_names(read_list))
step("account SAS without w creates a table", lambda: sas_service(read_list).create_table(t("denied"), fail_on_exist=True) and None)

jan2025 = datetime.datetime(2025, 1, 1, tzinfo=UTC)
step("set ACL", lambda: svc.set_table_acl(sas_name, {
    "readers": AccessPolicy(permission="r", start=jan2025, expiry=datetime.datetime(2035, 1, 1, tzinfo=UTC)),
}))
step("get ACL", lambda: [{"id": k, "permission": p.permission, "start": str(p.start), "expiry": str(p.expiry)}
                         for k, p in sorted(svc.get_table_acl(sas_name).items())])
policy_sas = svc.generate_table_shared_access_signature(sas_name, id="readers")
step("policy SAS query", lambda: keys(sas_service(policy_sas).query_entities(sas_name, "PartitionKey lt 'd'")))
step("remove ACL", lambda: svc.set_table_acl(sas_name, {}))
step("revoked policy SAS query", lambda: keys(sas_service(policy_sas).query_entities(sas_name)))


# The wider steps (wide_cosmosdb.py).
wide_cosmosdb.wide({"svc": svc, "t": t, "prefix": prefix})


def delete_tables():
    for n in ["main", "other", "paging", "sas"]:
        svc.delete_table(t(n), fail_not_exist=True)


step("delete tables", delete_tables)
step("delete table missing", lambda: svc.delete_table(main, fail_not_exist=True) and None)
step("table exists after delete", lambda: svc.exists(main))
