"""restlib sends raw REST requests through an azure.data.tables client's
own pipeline, so they are signed by the SDK while their headers, query
string and body are exactly what a step writes (a typed string value, a
malformed If-Match, an unknown x-ms-version, ...). answer() reduces a
response to what two services can share, as tools/sdk-js/rest.mjs does."""

import json
import os
import re

from azure.core.rest import HttpRequest

DATA = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "steps-data.json"), encoding="utf-8"))

DEFAULT_HEADERS = {
    "Accept": "application/json;odata=nometadata",
    "DataServiceVersion": "3.0",
    "x-ms-version": "2019-02-02",
}


def request(client, method, url, headers=None, body=None):
    """Sends METHOD url through client's pipeline; a header given as None
    is dropped from the defaults."""
    h = dict(DEFAULT_HEADERS)
    if body is not None:
        h["Content-Type"] = "application/json"
    for k, v in (headers or {}).items():
        if v is None:
            h.pop(k, None)
        else:
            h[k] = v
    req = HttpRequest(method, url, headers=h, content=body.encode("utf-8") if isinstance(body, str) else body)
    return client._client._client.send_request(req)  # the SDK's signed pipeline


def error_code(res):
    text = res.text()
    try:
        j = json.loads(text)
        code = (j.get("odata.error") or j.get("error") or {}).get("code")
        if code:
            return code
    except ValueError:
        m = re.search(r"<Code>([^<]+)</Code>", text)
        if m:
            return m.group(1)
    return res.headers.get("x-ms-error-code")


def stable(v):
    """Drops what differs between runs and servers: ETags, timestamps,
    metadata URLs."""
    if isinstance(v, list):
        return [stable(x) for x in v]
    if isinstance(v, dict):
        skip = ("odata.etag", "odata.metadata", "odata.id", "odata.editLink", "Timestamp", "Timestamp@odata.type")
        return {k: stable(v[k]) for k in sorted(v) if k not in skip}
    return v


def answer(res, body=False):
    out = {"status": res.status_code}
    if res.status_code >= 400:
        code = error_code(res)
        if code:
            out["code"] = code
        return out
    if body and res.text():
        try:
            out["body"] = stable(json.loads(res.text()))
        except ValueError:
            out["body"] = "not JSON: " + res.text()[:200]
    return out


def raw_props(text):
    """An entity's user properties as "name=value" source text, in the
    order the service wrote them (2 or 2.0, an annotation or none)."""
    out = []
    for m in re.finditer(r'"([^"]+)":("(?:[^"\\]|\\.)*"|[^,}]+)', text):
        name = m.group(1)
        if name in ("odata.etag", "odata.metadata", "Timestamp", "PartitionKey", "RowKey") or name.startswith("Timestamp@"):
            continue
        out.append("%s=%s" % (name, m.group(2)))
    return out
