// rest.mjs sends raw REST requests through a client's own pipeline, so
// they are signed with Shared Key by the SDK (or carry its SAS) while
// their headers, query string and body are exactly what a step writes:
// the conformance suite's way to ask what no SDK call can send (a typed
// string value, a malformed If-Match, an unknown x-ms-version, ...).
// answer() reduces a response to what two services can share: status,
// error code, and the JSON body without ETags, timestamps or names.
import { createDefaultHttpClient, createHttpHeaders, createPipelineRequest } from "@azure/core-rest-pipeline";

const http = createDefaultHttpClient();

// request sends METHOD url (absolute) with headers and an optional body
// through client.pipeline; the defaults are the JSON headers every SDK
// sends, which a step may replace or drop (a value of null drops one).
export async function request(client, method, url, { headers = {}, body } = {}) {
  const h = {
    Accept: "application/json;odata=nometadata",
    DataServiceVersion: "3.0",
    "x-ms-version": "2019-02-02",
    ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    ...headers,
  };
  for (const k of Object.keys(h)) if (h[k] === null) delete h[k];
  const req = createPipelineRequest({ url, method, headers: createHttpHeaders(h), body, allowInsecureConnection: true });
  return client.pipeline.sendRequest(http, req);
}

// errorCode finds a refusal's code in the x-ms-error-code header, a JSON
// odata.error or an XML <Code>.
export function errorCode(res) {
  const text = res.bodyAsText ?? "";
  try {
    const j = JSON.parse(text);
    const code = j?.["odata.error"]?.code ?? j?.error?.code;
    if (code) return code;
  } catch {
    const m = /<Code>([^<]+)<\/Code>/.exec(text);
    if (m) return m[1];
  }
  return res.headers.get("x-ms-error-code") ?? undefined;
}

// stable drops what differs from run to run or server to server: ETags,
// timestamps, metadata URLs (which hold the host and table names).
export function stable(v) {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) {
      if (["odata.etag", "odata.metadata", "odata.id", "odata.editLink", "Timestamp", "Timestamp@odata.type"].includes(k)) continue;
      out[k] = stable(v[k]);
    }
    return out;
  }
  return v;
}

// answer is a response as a step compares it: the status, the error code
// of a refusal, and with body the JSON body made stable; with raw the body
// text itself, for answers whose bytes matter (how a Double is written).
export function answer(res, { body = false, raw = false } = {}) {
  const out = { status: res.status };
  if (res.status >= 400) {
    const code = errorCode(res);
    if (code) out.code = code;
    return out;
  }
  if (raw) out.text = res.bodyAsText ?? "";
  else if (body && res.bodyAsText) {
    try {
      out.body = stable(JSON.parse(res.bodyAsText));
    } catch {
      out.body = "not JSON: " + res.bodyAsText.slice(0, 200);
    }
  }
  return out;
}

// rawProps is an entity's JSON text reduced to its user properties in
// the order the service wrote them, as "name":value source text, so a
// step sees how each value is written (2 or 2.0, an annotation or none).
export function rawProps(text) {
  const out = [];
  const re = /"([^"]+)":("(?:[^"\\]|\\.)*"|[^,}]+)/g;
  for (const m of text.matchAll(re)) {
    if (["odata.etag", "odata.metadata", "Timestamp", "PartitionKey", "RowKey"].includes(m[1]) || m[1].startsWith("Timestamp@")) continue;
    out.push(`${m[1]}=${m[2]}`);
  }
  return out;
}
