"""wide_service.py: the wider steps of steps_tables.py (azure.data.tables) on
requests no entity call makes: a malformed If-Match, an unknown
x-ms-version, Table service properties and statistics, CORS preflight and
CORS headers, and SAS details (sig twice, a stored access policy changed
under a token)."""

import datetime
import re
import urllib.error
import urllib.request

from azure.core import MatchConditions
from azure.core.credentials import AzureSasCredential
from azure.data.tables import (
    TableAccessPolicy,
    TableClient,
    TableCorsRule,
    TableMetrics,
    TableRetentionPolicy,
    TableSasPermissions,
    TableAnalyticsLogging,
    UpdateMode,
    generate_table_sas,
)

from restlib import answer, request
from steplib import props, step

UTC = datetime.timezone.utc
IF_MATCH = [
    ("quoted", '"wrong"'),
    ("unquoted", "wrong"),
    ("a lone quote", '"'),
    ("a strong datetime ETag", "\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\""),
    ("a weak ETag never issued", "W/\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\""),
    ("two ETags", 'W/"a", W/"b"'),
]
RULE = TableCorsRule(["https://app.example"], ["GET", "PUT"], allowed_headers=["x-ms-meta-*", "content-type"],
                     exposed_headers=["x-ms-request-id"], max_age_in_seconds=600)


def preflight(url, origin, method, headers=None):
    """An unauthenticated OPTIONS as a browser sends it: the status and the
    CORS headers of the answer."""
    h = {"Origin": origin}
    if method:
        h["Access-Control-Request-Method"] = method
    if headers:
        h["Access-Control-Request-Headers"] = headers
    try:
        res = urllib.request.urlopen(urllib.request.Request(url, method="OPTIONS", headers=h))
    except urllib.error.HTTPError as e:
        res = e
    out = {"status": res.status if hasattr(res, "status") else res.code}
    for k in ["access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers", "access-control-max-age"]:
        if res.headers.get(k):
            out[k] = res.headers.get(k)
    return out


def service(ctx):
    t, table, svc, endpoint, cred = ctx["t"], ctx["table"], ctx["svc"], ctx["endpoint"], ctx["cred"]
    s = table(t("service"))
    step("service setup", lambda: s.create_table() and s.create_entity({"PartitionKey": "p", "RowKey": "1", "V": 1}) and None)
    entity_url = "%s/%s(PartitionKey='p',RowKey='1')" % (endpoint, t("service"))
    for name, if_match in IF_MATCH:
        step("update with If-Match " + name, lambda: s.update_entity({"PartitionKey": "p", "RowKey": "1", "V": 2}, mode=UpdateMode.MERGE,
                                                                     etag=if_match, match_condition=MatchConditions.IfNotModified) and None)
        step("raw delete with If-Match " + name, lambda: answer(request(s, "DELETE", entity_url, {"If-Match": if_match})))
    for name, version in [("invalid", "invalid"), ("a date never released", "2019-02-03")]:
        step("raw read with x-ms-version " + name, lambda: answer(request(s, "GET", entity_url, {"x-ms-version": version})))

    step("set service properties", lambda: svc.set_service_properties(
        analytics_logging=TableAnalyticsLogging(read=True, delete=True, retention_policy=TableRetentionPolicy(enabled=True, days=3)),
        hour_metrics=TableMetrics(enabled=True, include_apis=True, retention_policy=TableRetentionPolicy(enabled=True, days=7)),
        minute_metrics=TableMetrics(enabled=False), cors=[RULE]))

    def get_props():
        p = svc.get_service_properties()
        lg, hm, cors = p["analytics_logging"], p["hour_metrics"], p["cors"]
        return {"logging": [lg.read, lg.write, lg.delete, lg.retention_policy.enabled, lg.retention_policy.days],
                "hour": [hm.enabled, hm.include_apis, hm.retention_policy.days],
                "cors": [[r.allowed_origins, r.allowed_methods, r.allowed_headers, r.exposed_headers, r.max_age_in_seconds] for r in cors]}
    step("get service properties", get_props)
    step("set service properties with six CORS rules", lambda: svc.set_service_properties(cors=[RULE] * 6))
    step("CORS preflight allowed", lambda: preflight(entity_url, "https://app.example", "GET", "content-type"))
    step("CORS preflight of another origin", lambda: preflight(entity_url, "https://other.example", "GET"))
    step("CORS preflight of a method not allowed", lambda: preflight(entity_url, "https://app.example", "DELETE"))
    step("CORS preflight without a request method", lambda: preflight(entity_url, "https://app.example", None))

    def browser_get():
        res = request(s, "GET", entity_url, {"Origin": "https://app.example"})
        return {"status": res.status_code, "origin": res.headers.get("access-control-allow-origin", "none"),
                "exposed": res.headers.get("access-control-expose-headers", "none")}
    step("CORS headers on an answer to a browser", browser_get)
    step("remove CORS rules", lambda: svc.set_service_properties(cors=[]))
    step("CORS preflight without rules", lambda: preflight(entity_url, "https://app.example", "GET"))

    secondary_url = re.sub(r"/([^/]+)/?$", r"/\1-secondary", endpoint)
    step("read an entity on the secondary", lambda: props(TableClient(secondary_url, t("service"), credential=cred, retry_total=0).get_entity("p", "1")))

    name = t("service")
    sas = generate_table_sas(cred, name, permission=TableSasPermissions(read=True),
                             expiry=datetime.datetime.now(UTC) + datetime.timedelta(hours=1), protocol="https,http")
    sig = re.search(r"(?:^|&)sig=([^&]*)", sas).group(1)

    def via(token):
        return ["%s/%s" % (e["PartitionKey"], e["RowKey"]) for e in TableClient(endpoint, name, credential=AzureSasCredential(token), retry_total=0).list_entities()]
    step("SAS with sig twice", lambda: via("%s&sig=%s" % (sas, sig)))
    step("SAS with two different sig", lambda: via(sas + "&sig=CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk%3D"))
    step("SAS with sv twice", lambda: via(sas + "&sv=2019-02-02"))
    jan2025, jan2035 = datetime.datetime(2025, 1, 1, tzinfo=UTC), datetime.datetime(2035, 1, 1, tzinfo=UTC)
    step("policy setup", lambda: s.set_table_access_policy({"p1": TableAccessPolicy(permission="r", start=jan2025, expiry=jan2035)}))
    policy_sas = generate_table_sas(cred, name, policy_id="p1", protocol="https,http")
    step("policy SAS query before the change", lambda: via(policy_sas))
    step("policy changed to add only", lambda: s.set_table_access_policy({"p1": TableAccessPolicy(permission="a", start=jan2025, expiry=jan2035)}))
    step("policy SAS query after the change", lambda: via(policy_sas))
    step("policy SAS insert after the change", lambda: TableClient(endpoint, name, credential=AzureSasCredential(policy_sas), retry_total=0)
         .create_entity({"PartitionKey": "p", "RowKey": "2"}) and None)
    step("policy SAS repeating the policy's permission",
         lambda: via(generate_table_sas(cred, name, policy_id="p1", permission=TableSasPermissions(read=True), protocol="https,http")))
    step("delete service table", lambda: s.delete_table())
