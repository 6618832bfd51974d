"""steps_tables.py runs the conformance suite's sequence of steps with the
Azure Tables Python SDK (azure.data.tables 12.4, Debian's python3-azure)
against the Table service of a connection string, printing one JSON line
per step. The Go test pkg/emulator/sdk_conformance_test.go runs it against
Azurite and the embedded service and diffs the lines.

Usage: TABLESTRESS_CONN=... TABLESTRESS_PREFIX=abc /usr/bin/python3 steps_tables.py
"""

import datetime
import json
import uuid

from azure.core import MatchConditions
from azure.core.credentials import AzureNamedKeyCredential, AzureSasCredential
from azure.data.tables import (
    AccountSasPermissions,
    EdmType,
    EntityProperty,
    ResourceTypes,
    TableAccessPolicy,
    TableClient,
    TableSasPermissions,
    TableServiceClient,
    UpdateMode,
    generate_account_sas,
    generate_table_sas,
)

import wide_pages
import wide_service
import wide_tables
from steplib import FILTERS, FORBIDDEN_KEYS, KEYS, SAS_ROWS, failure, paging_summary, props, settings, step

conn, kv, prefix = settings()
endpoint = kv["TableEndpoint"]
cred = AzureNamedKeyCredential(kv["AccountName"], kv["AccountKey"])
svc = TableServiceClient.from_connection_string(conn, retry_total=0)


def table(name):
    return TableClient.from_connection_string(conn, table_name=name, retry_total=0)


def sas_table(name, sas):
    return TableClient(endpoint, table_name=name, credential=AzureSasCredential(sas), retry_total=0)


def keys(entities):
    return ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in entities]


def t(s):
    return prefix + s


main = table(t("main"))
UTC = datetime.timezone.utc

step("create table", lambda: svc.create_table(t("main")) and None)
step("create table twice", lambda: main.create_table() and None)
step("create table 1bad", lambda: svc.create_table("1bad") and None)
step("create table ab", lambda: svc.create_table("ab") and None)


def list_tables():
    svc.create_table(t("other"))
    found = svc.query_tables("TableName ge @lo and TableName lt @hi", parameters={"lo": prefix, "hi": prefix + "~"})
    return [tb.name[len(prefix):] for tb in found]


step("list tables by name", list_tables)

edm = {
    "PartitionKey": "edm",
    "RowKey": "all",
    "Str": "text ü 🙂",
    "Int32": 2147483647,
    "Int64": EntityProperty(9007199254740993, EdmType.INT64),
    "Double": 1.5,
    "WholeDouble": EntityProperty(2.0, EdmType.DOUBLE),
    "Bool": True,
    "Date": datetime.datetime(2025, 2, 4, 9, 10, 11, 123000, tzinfo=UTC),
    "Guid": uuid.UUID("0f8fad5b-d9cb-469f-a165-70867728950e"),
    "Bin": bytes([0, 1, 2, 254, 255]),
}
step("insert every EDM type", lambda: main.create_entity(edm) and None)
step("read every EDM type", lambda: props(main.get_entity("edm", "all")))

for name, pk, rk in KEYS:
    step("insert " + name, lambda: main.create_entity({"PartitionKey": pk, "RowKey": rk, "V": 1}) and None)
    step("read " + name, lambda: props(main.get_entity(pk, rk)))
for name, pk in FORBIDDEN_KEYS:
    step("insert a key with a " + name, lambda: main.create_entity({"PartitionKey": pk, "RowKey": "x"}) and None)


def etags():
    out = []
    put = main.create_entity({"PartitionKey": "etag", "RowKey": "1", "V": 1})
    stale = put["etag"]
    main.update_entity({"PartitionKey": "etag", "RowKey": "1", "V": 2}, mode=UpdateMode.REPLACE, etag=stale, match_condition=MatchConditions.IfNotModified)
    out.append("update with etag ok")
    for what, f in [
        ("update stale", lambda: main.update_entity({"PartitionKey": "etag", "RowKey": "1", "V": 3}, mode=UpdateMode.MERGE, etag=stale, match_condition=MatchConditions.IfNotModified)),
        ("delete stale", lambda: main.delete_entity("etag", "1", etag=stale, match_condition=MatchConditions.IfNotModified)),
        ("update missing", lambda: main.update_entity({"PartitionKey": "etag", "RowKey": "none", "V": 3}, mode=UpdateMode.MERGE)),
        ("insert existing", lambda: main.create_entity({"PartitionKey": "etag", "RowKey": "1"})),
        ("delete any", lambda: main.delete_entity("etag", "1")),
        ("delete missing", lambda: main.delete_entity("etag", "none")),
    ]:
        try:
            f()
            out.append(what + " ok")
        except Exception as e:
            out.append("%s %s" % (what, json.dumps(failure(e), sort_keys=True)))
    return out


step("etag conditions", etags)


def upserts():
    main.upsert_entity({"PartitionKey": "up", "RowKey": "1", "A": 1}, mode=UpdateMode.MERGE)
    main.upsert_entity({"PartitionKey": "up", "RowKey": "1", "B": 2}, mode=UpdateMode.MERGE)
    merged = props(main.get_entity("up", "1"))
    main.upsert_entity({"PartitionKey": "up", "RowKey": "1", "C": 3}, mode=UpdateMode.REPLACE)
    replaced = props(main.get_entity("up", "1"))
    main.update_entity({"PartitionKey": "up", "RowKey": "1", "D": 4}, mode=UpdateMode.MERGE)
    return {"merged": merged, "replaced": replaced, "updated": props(main.get_entity("up", "1"))}


step("upserts", upserts)


def batch_all():
    for rk in ["um", "ur", "d"]:
        main.create_entity({"PartitionKey": "batch", "RowKey": rk, "Old": 1})
    main.submit_transaction([
        ("create", {"PartitionKey": "batch", "RowKey": "c", "V": 1}),
        ("update", {"PartitionKey": "batch", "RowKey": "um", "V": 1}, {"mode": UpdateMode.MERGE}),
        ("update", {"PartitionKey": "batch", "RowKey": "ur", "V": 1}, {"mode": UpdateMode.REPLACE}),
        ("upsert", {"PartitionKey": "batch", "RowKey": "sm", "V": 1}, {"mode": UpdateMode.MERGE}),
        ("upsert", {"PartitionKey": "batch", "RowKey": "sr", "V": 1}, {"mode": UpdateMode.REPLACE}),
        ("delete", {"PartitionKey": "batch", "RowKey": "d"}),
    ])
    return {e["RowKey"]: props(e) for e in main.query_entities("PartitionKey eq 'batch'")}


step("batch of every operation", batch_all)
step("batch failing in the middle", lambda: main.submit_transaction([
    ("create", {"PartitionKey": "batch", "RowKey": "n1"}),
    ("create", {"PartitionKey": "batch", "RowKey": "c"}),
    ("delete", {"PartitionKey": "batch", "RowKey": "um"}),
]) and None)
step("batch failing in the middle wrote nothing", lambda: keys(main.query_entities("PartitionKey eq 'batch'")))
step("batch over two partitions", lambda: main.submit_transaction([
    ("create", {"PartitionKey": "batch", "RowKey": "two1"}),
    ("create", {"PartitionKey": "batch2", "RowKey": "two2"}),
]) and None)
step("batch with an entity twice", lambda: main.submit_transaction([
    ("upsert", {"PartitionKey": "batch", "RowKey": "twice"}),
    ("delete", {"PartitionKey": "batch", "RowKey": "twice"}),
]) and None)

paging = table(t("paging"))


def paging_across():
    paging.create_table()
    for pk in ["p1", "p2", "p3"]:
        paging.submit_transaction([("create", {"PartitionKey": pk, "RowKey": "%03d" % i, "I": i, "S": "s%d" % (i % 4)}) for i in range(40)])
    sizes, got = [], []
    for page in paging.list_entities(results_per_page=25).by_page():
        page = list(page)
        sizes.append(len(page))
        got += keys(page)
    return paging_summary(sizes, got)


step("paging across partitions", paging_across)
step("$top", lambda: keys(next(paging.query_entities("PartitionKey eq 'p2'", results_per_page=3).by_page())))
step("$select", lambda: [props(e) for e in paging.query_entities("PartitionKey eq 'p1' and RowKey lt '002'", select=["I"])])
for name, flt in FILTERS:
    step(name, lambda: keys(paging.query_entities(flt)))

step("string of 32768 characters", lambda: main.create_entity({"PartitionKey": "lim", "RowKey": "s1", "S": "x" * 32768}) and None)
step("string of 32769 characters", lambda: main.create_entity({"PartitionKey": "lim", "RowKey": "s2", "S": "x" * 32769}) and None)
step("binary of 65537 bytes", lambda: main.create_entity({"PartitionKey": "lim", "RowKey": "b", "B": bytes(65537)}) and None)
step("property name of 256 characters", lambda: main.create_entity({"PartitionKey": "lim", "RowKey": "n", "n" * 256: 1}) and None)
step("property name not an identifier", lambda: main.create_entity({"PartitionKey": "lim", "RowKey": "n2", "bad name": 1}) and None)
big = {"PartitionKey": "lim", "RowKey": "big"}
big.update({"S%d" % i: "x" * 32768 for i in range(16)})
step("entity over 1 MiB", lambda: main.create_entity(big) and None)
step("entity over 1 MiB in a batch", lambda: main.submit_transaction([("create", {"PartitionKey": "lim", "RowKey": "small"}), ("create", dict(big, RowKey="bigbatch"))]) and None)
many = {"PartitionKey": "lim", "RowKey": "many"}
many.update({"P%d" % i: i for i in range(253)})
step("253 properties", lambda: main.create_entity(many) and None)
step("create returns the entity", lambda: props(main.create_entity({"PartitionKey": "ret", "RowKey": "1", "V": 1}).get("content", {}),
                                                skip=("Timestamp", "odata.metadata", "odata.etag")))

# SAS and ACL, on a table of their own.
sas_name = t("sas")
sas_t = table(sas_name)


def sas_setup():
    sas_t.create_table()
    for pk, rk in SAS_ROWS:
        sas_t.create_entity({"PartitionKey": pk, "RowKey": rk})


step("SAS setup", sas_setup)
hour = datetime.datetime.now(UTC) + datetime.timedelta(hours=1)
range_sas = generate_table_sas(cred, sas_name, permission=TableSasPermissions(read=True, add=True), expiry=hour,
                               protocol="https,http", start_pk="b", start_rk="2", end_pk="d")
ranged = sas_table(sas_name, range_sas)
step("table SAS query", lambda: keys(ranged.list_entities()))
step("table SAS insert in range", lambda: ranged.create_entity({"PartitionKey": "c", "RowKey": "2"}) and None)
step("table SAS insert out of range", lambda: ranged.create_entity({"PartitionKey": "z", "RowKey": "1"}) and None)
step("table SAS delete without d", lambda: ranged.delete_entity("c", "1"))
step("table SAS on another table", lambda: sas_table(t("main"), range_sas).get_entity("edm", "all") and None)
expired = generate_table_sas(cred, sas_name, permission=TableSasPermissions(read=True),
                             expiry=datetime.datetime.now(UTC) - datetime.timedelta(minutes=1), protocol="https,http")
step("expired table SAS", lambda: keys(sas_table(sas_name, expired).list_entities()))
tampered = range_sas[:range_sas.index("sig=") + 4] + "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc%3D"
step("table SAS with a wrong signature", lambda: keys(sas_table(sas_name, tampered).list_entities()))
object_only = generate_account_sas(cred, ResourceTypes(object=True), AccountSasPermissions(read=True, list=True, add=True, write=True),
                                   hour, protocol="https,http")


def acct(sas):
    return TableServiceClient(endpoint, credential=AzureSasCredential(sas), retry_total=0)


step("account SAS srt=o lists tables", lambda: len(list(acct(object_only).list_tables())) > 0)
read_list = generate_account_sas(cred, ResourceTypes(service=True, container=True, object=True), AccountSasPermissions(read=True, list=True),
                                 hour, protocol="https,http")
step("account SAS without w creates a table", lambda: acct(read_list).create_table(t("denied")) and None)
step("account SAS without d deletes an entity", lambda: sas_table(sas_name, read_list).delete_entity("a", "1"))

jan2025 = datetime.datetime(2025, 1, 1, tzinfo=UTC)
step("set ACL", lambda: sas_t.set_table_access_policy({
    "readers": TableAccessPolicy(permission="r", start=jan2025, expiry=datetime.datetime(2035, 1, 1, tzinfo=UTC)),
    "writers": TableAccessPolicy(permission="raud", start=jan2025, expiry=datetime.datetime(2026, 1, 1, tzinfo=UTC)),
}))


def get_acl():
    out = []
    for pid, p in sorted(sas_t.get_table_access_policy().items()):
        out.append({"id": pid, "permission": p.permission, "start": str(p.start), "expiry": str(p.expiry)})
    return out


step("get ACL", get_acl)
policy_sas = generate_table_sas(cred, sas_name, policy_id="readers", protocol="https,http")
step("policy SAS query", lambda: keys(sas_table(sas_name, policy_sas).query_entities("PartitionKey lt 'd'")))
step("policy SAS insert", lambda: sas_table(sas_name, policy_sas).create_entity({"PartitionKey": "p", "RowKey": "1"}) and None)
step("set ACL of six policies", lambda: sas_t.set_table_access_policy(
    {str(i): TableAccessPolicy(permission="r", start=jan2025, expiry=datetime.datetime(2035, 1, 1, tzinfo=UTC)) for i in range(6)}))
step("remove ACL", lambda: sas_t.set_table_access_policy({}))
step("revoked policy SAS query", lambda: keys(sas_table(sas_name, policy_sas).list_entities()))


# The wider steps, area by area (wide_*.py).
ctx = {"t": t, "table": table, "svc": svc, "prefix": prefix, "endpoint": endpoint, "cred": cred}
wide_tables.values(ctx)
wide_tables.queries(ctx)
wide_pages.paging(ctx)
wide_pages.tables(ctx)
wide_pages.batches(ctx)
wide_service.service(ctx)


def delete_tables():
    for n in ["main", "other", "paging", "sas"]:
        svc.delete_table(t(n))


step("delete tables", delete_tables)
step("delete table missing", lambda: table(t("main")).delete_table())
