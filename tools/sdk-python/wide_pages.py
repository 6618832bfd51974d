"""wide_pages.py: the wider steps of steps_tables.py (azure.data.tables) on
paging with $top and continuations across many pages and partitions, table
listing by name ranges, and transactions mixing every operation."""

from azure.core import MatchConditions
from azure.data.tables import UpdateMode

from restlib import request
from steplib import props, step


def summary(pages):
    sizes, keys = [], []
    for page in pages:
        page = list(page)
        sizes.append(len(page))
        keys += ["%s/%s" % (e.get("PartitionKey"), e.get("RowKey")) for e in page]
    out = {"pages": len(sizes), "sizes": sorted(set(sizes)), "total": len(keys), "distinct": len(set(keys)), "sorted": keys == sorted(keys)}
    if keys:
        out.update(first=keys[0], last=keys[-1])
    return out


def paging(ctx):
    t, table = ctx["t"], ctx["table"]
    p = table(t("pages"))

    def setup():
        p.create_table()
        for part in range(6):
            p.submit_transaction([("create", {"PartitionKey": "p%d" % part, "RowKey": "%03d" % i, "I": i}) for i in range(50)])
    step("pages setup", setup)
    step("pages of 7 over 6 partitions", lambda: summary(p.list_entities(results_per_page=7).by_page()))
    step("pages of 1 in one partition", lambda: summary(p.query_entities("PartitionKey eq 'p3'", results_per_page=1).by_page()))
    step("pages of 13 with a filter across partitions", lambda: summary(p.query_entities("I ge 20 and I lt 31", results_per_page=13).by_page()))
    step("pages of 1000", lambda: summary(p.list_entities(results_per_page=1000).by_page()))
    step("pages with a select", lambda: summary(p.list_entities(results_per_page=64, select=["PartitionKey", "RowKey"]).by_page()))
    step("pages of a filter that matches none", lambda: summary(p.query_entities("I eq -1", results_per_page=5).by_page()))
    step("pages of a partition range",
         lambda: summary(p.query_entities("PartitionKey gt 'p1' and PartitionKey le 'p3' and RowKey ge '045'", results_per_page=4).by_page()))

    def resume():
        base = "%s/%s()?$top=3&$filter=PartitionKey%%20eq%%20'p5'%%20or%%20PartitionKey%%20eq%%20'p0'" % (ctx["endpoint"], t("pages"))
        first = request(p, "GET", base)
        npk = first.headers.get("x-ms-continuation-NextPartitionKey")
        nrk = first.headers.get("x-ms-continuation-NextRowKey")
        nxt = request(p, "GET", "%s&NextPartitionKey=%s&NextRowKey=%s" % (base, npk, nrk))
        keys = lambda r: ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in r.json()["value"]]
        return {"first": keys(first), "continues": bool(npk and nrk), "next": keys(nxt)}
    step("raw continuation resumes where it left", resume)
    step("delete pages table", lambda: p.delete_table())


def tables(ctx):
    t, svc, prefix = ctx["t"], ctx["svc"], ctx["prefix"]

    def setup():
        for n in ["ta1", "ta2", "tb1", "tb2", "tc1"]:
            svc.create_table(t(n))
    step("tables setup", setup)

    def names(flt, size):
        q = "TableName ge '%st' and TableName lt '%su'" % (prefix, prefix) + (" and " + flt if flt else "")
        return [",".join(tb.name[len(prefix):] for tb in page) for page in svc.query_tables(q, results_per_page=size).by_page()]
    step("list tables in a name range", lambda: names("", 1000))
    step("list tables by pages of 2", lambda: names("", 2))
    step("list tables gt and le", lambda: names("TableName gt '%sta1' and TableName le '%stb2'" % (prefix, prefix), 1000))
    step("list tables eq", lambda: names("TableName eq '%stb1'" % prefix, 1000))
    step("list tables ne", lambda: names("TableName ne '%stb1'" % prefix, 1000))
    step("list tables or", lambda: names("(TableName eq '%sta2' or TableName eq '%stc1')" % (prefix, prefix), 1000))
    step("list tables not", lambda: names("not (TableName lt '%stb')" % prefix, 1000))

    def teardown():
        for n in ["ta1", "ta2", "tb1", "tb2", "tc1"]:
            svc.delete_table(t(n))
    step("delete listed tables", teardown)


def answers(result):
    """A transaction's answers as the SDK gives them: the names of what
    each sub-response's mapping holds, with an ETag or not."""
    return [sorted(k for k, v in r.items() if v is not None) for r in result]


def batches(ctx):
    t, table = ctx["t"], ctx["table"]
    b = table(t("batches"))

    def everything():
        return {"%s/%s" % (e.get("PartitionKey"), e.get("RowKey")): props(e) for e in b.list_entities()}

    def setup():
        b.create_table()
        for rk in ["d1", "d2", "m1", "r1", "e1"]:
            b.create_entity({"PartitionKey": "x", "RowKey": rk, "Old": 1})
    step("batches setup", setup)
    step("batch sub-responses name their entities", lambda: answers(b.submit_transaction([
        ("create", {"PartitionKey": "x", "RowKey": "c1", "V": 1}),
        ("upsert", {"PartitionKey": "x", "RowKey": "u1", "V": 1}, {"mode": UpdateMode.MERGE}),
        ("upsert", {"PartitionKey": "x", "RowKey": "u2", "V": 1}, {"mode": UpdateMode.REPLACE}),
        ("update", {"PartitionKey": "x", "RowKey": "m1", "V": 1}, {"mode": UpdateMode.MERGE}),
        ("update", {"PartitionKey": "x", "RowKey": "r1", "V": 1}, {"mode": UpdateMode.REPLACE}),
        ("delete", {"PartitionKey": "x", "RowKey": "d1"}),
    ])))
    step("batch wrote every operation", everything)
    etag = b.get_entity("x", "e1").metadata["etag"]
    cond = {"etag": etag, "match_condition": MatchConditions.IfNotModified}
    step("batch update with the current ETag", lambda: answers(b.submit_transaction([
        ("update", {"PartitionKey": "x", "RowKey": "e1", "V": 2}, dict(cond, mode=UpdateMode.MERGE))])))
    step("batch update with a stale ETag", lambda: answers(b.submit_transaction([
        ("create", {"PartitionKey": "x", "RowKey": "c9"}),
        ("update", {"PartitionKey": "x", "RowKey": "e1", "V": 3}, dict(cond, mode=UpdateMode.REPLACE))])))
    step("batch delete with a stale ETag", lambda: answers(b.submit_transaction([("delete", {"PartitionKey": "x", "RowKey": "e1"}, cond)])))
    step("batch failing first", lambda: answers(b.submit_transaction([
        ("create", {"PartitionKey": "x", "RowKey": "c1"}), ("create", {"PartitionKey": "x", "RowKey": "c2"})])))
    step("batch failing last", lambda: answers(b.submit_transaction([
        ("create", {"PartitionKey": "x", "RowKey": "c3"}), ("delete", {"PartitionKey": "x", "RowKey": "d2"}),
        ("update", {"PartitionKey": "x", "RowKey": "none", "V": 1}, {"mode": UpdateMode.MERGE})])))
    step("batch delete missing", lambda: answers(b.submit_transaction([("delete", {"PartitionKey": "x", "RowKey": "none"})])))
    step("batch failures wrote nothing", everything)
    step("batch of deletes only", lambda: answers(b.submit_transaction([
        ("delete", {"PartitionKey": "x", "RowKey": "d2"}), ("delete", {"PartitionKey": "x", "RowKey": "c1"})])))
    step("batch insert then merge of one entity", lambda: answers(b.submit_transaction([
        ("create", {"PartitionKey": "x", "RowKey": "twice"}), ("update", {"PartitionKey": "x", "RowKey": "twice", "V": 1}, {"mode": UpdateMode.MERGE})])))
    step("batch of 100 operations", lambda: len(b.submit_transaction([
        ("upsert", {"PartitionKey": "y", "RowKey": "%03d" % i, "I": i}, {"mode": UpdateMode.MERGE if i % 2 else UpdateMode.REPLACE}) for i in range(100)])))
    step("batch of 100 operations wrote them", lambda: len(list(b.query_entities("PartitionKey eq 'y'"))))
    step("batch with empty keys", lambda: answers(b.submit_transaction([
        ("create", {"PartitionKey": "", "RowKey": ""}), ("upsert", {"PartitionKey": "", "RowKey": "e", "V": 1})])))
    step("batch with keys outside the basic plane", lambda: answers(b.submit_transaction([
        ("create", {"PartitionKey": "\U0001D11E", "RowKey": "\U0001F600"}), ("upsert", {"PartitionKey": "\U0001D11E", "RowKey": "it's", "V": 1})])))
    step("batch on a missing table", lambda: answers(table(t("nosuch")).submit_transaction([("create", {"PartitionKey": "x", "RowKey": "1"})])))
    step("batch final state", everything)
    step("delete batches table", lambda: b.delete_table())
