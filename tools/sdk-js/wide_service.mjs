// wide_service.mjs: the conformance suite's steps on requests no entity
// call makes: conditions Azure cannot have issued (a malformed If-Match),
// an unknown x-ms-version, Table service properties and statistics, CORS
// preflight and CORS headers, and SAS details (sig twice, a stored access
// policy changed under a token). See steps.mjs.
import { answer, request } from "./rest.mjs";

const corsRule = {
  allowedOrigins: "https://app.example",
  allowedMethods: "GET,PUT",
  allowedHeaders: "x-ms-meta-*,content-type",
  exposedHeaders: "x-ms-request-id",
  maxAgeInSeconds: 600,
};

// preflight sends an unauthenticated OPTIONS as a browser would and
// keeps the status and the CORS headers of the answer.
async function preflight(url, origin, method, headers) {
  const res = await fetch(url, {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": method, ...(headers ? { "Access-Control-Request-Headers": headers } : {}) },
  });
  const out = { status: res.status };
  for (const h of ["access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers", "access-control-max-age"])
    if (res.headers.get(h)) out[h] = res.headers.get(h);
  return out;
}

export async function service({ step, table, svc, t, props, keysOf, endpoint, cred, opts, TableServiceClient, TableClient, AzureSASCredential, generateTableSas }) {
  const s = table(t("service"));
  await step("service setup", () => s.createTable().then(() => s.createEntity({ partitionKey: "p", rowKey: "1", V: 1 })));
  const entityURL = `${endpoint}/${t("service")}(PartitionKey='p',RowKey='1')`;
  for (const [name, ifMatch] of [
    ["quoted", '"wrong"'],
    ["unquoted", "wrong"],
    ["a lone quote", '"'],
    ["a strong datetime ETag", "\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\""],
    ["a weak ETag never issued", "W/\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\""],
    ["two ETags", 'W/"a", W/"b"'],
  ]) {
    await step(`update with If-Match ${name}`, () => s.updateEntity({ partitionKey: "p", rowKey: "1", V: 2 }, "Merge", { etag: ifMatch }));
    await step(`raw delete with If-Match ${name}`, async () => answer(await request(s, "DELETE", entityURL, { headers: { "If-Match": ifMatch } })));
  }
  for (const [name, version] of [
    ["invalid", "invalid"],
    ["a date never released", "2019-02-03"],
  ])
    await step(`raw read with x-ms-version ${name}`, async () => answer(await request(s, "GET", entityURL, { headers: { "x-ms-version": version } })));

  const properties = {
    logging: { version: "1.0", read: true, write: false, delete: true, retentionPolicy: { enabled: true, days: 3 } },
    hourMetrics: { version: "1.0", enabled: true, includeAPIs: true, retentionPolicy: { enabled: true, days: 7 } },
    minuteMetrics: { version: "1.0", enabled: false, retentionPolicy: { enabled: false } },
    cors: [corsRule],
  };
  await step("set service properties", () => svc.setProperties(properties));
  await step("get service properties", async () => {
    const p = await svc.getProperties();
    return { logging: p.logging, hourMetrics: p.hourMetrics, minuteMetrics: p.minuteMetrics, cors: p.cors };
  });
  await step("set service properties with six CORS rules", () => svc.setProperties({ cors: [1, 2, 3, 4, 5, 6].map(() => corsRule) }));
  await step("CORS preflight allowed", () => preflight(entityURL, "https://app.example", "GET", "content-type"));
  await step("CORS preflight of another origin", () => preflight(entityURL, "https://other.example", "GET"));
  await step("CORS preflight of a method not allowed", () => preflight(entityURL, "https://app.example", "DELETE"));
  await step("CORS preflight without a request method", async () => {
    const res = await fetch(entityURL, { method: "OPTIONS", headers: { Origin: "https://app.example" } });
    return { status: res.status };
  });
  await step("CORS headers on an answer to a browser", async () => {
    const res = await request(s, "GET", entityURL, { headers: { Origin: "https://app.example" } });
    return { status: res.status, origin: res.headers.get("access-control-allow-origin") ?? "none", exposed: res.headers.get("access-control-expose-headers") ?? "none" };
  });
  await step("remove CORS rules", () => svc.setProperties({ cors: [] }));
  await step("CORS preflight without rules", () => preflight(entityURL, "https://app.example", "GET"));

  const secondary = new TableServiceClient(endpoint.replace(/\/([^/]+)\/?$/, "/$1-secondary"), cred, opts);
  await step("service stats on the secondary", async () => {
    const st = await secondary.getStatistics();
    return { status: st.geoReplication?.status ?? "none", hasLastSync: Boolean(st.geoReplication?.lastSyncTime) };
  });
  await step("service stats on the primary", async () => (await svc.getStatistics()).geoReplication?.status ?? "none");
  await step("read an entity on the secondary", async () => props(await new TableClient(endpoint.replace(/\/([^/]+)\/?$/, "/$1-secondary"), t("service"), cred, opts).getEntity("p", "1")));

  const name = t("service");
  const sas = generateTableSas(name, cred, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3), protocol: "https,http" });
  const sig = /(?:^|&)sig=([^&]*)/.exec(sas)[1];
  const viaSas = (token) => keysOf(new TableClient(endpoint, name, new AzureSASCredential(token), opts).listEntities());
  await step("SAS with sig twice", () => viaSas(`${sas}&sig=${sig}`));
  await step("SAS with two different sig", () => viaSas(`${sas}&sig=${encodeURIComponent(Buffer.alloc(32, 9).toString("base64"))}`));
  await step("SAS with sv twice", () => viaSas(`${sas}&sv=2019-02-02`));
  const policy = (permission) => [{ id: "p1", accessPolicy: { permission, start: new Date("2025-01-01T00:00:00Z"), expiry: new Date("2035-01-01T00:00:00Z") } }];
  await step("policy setup", () => s.setAccessPolicy(policy("r")));
  const policySas = generateTableSas(name, cred, { identifier: "p1", protocol: "https,http" });
  await step("policy SAS query before the change", () => viaSas(policySas));
  await step("policy changed to add only", () => s.setAccessPolicy(policy("a")));
  await step("policy SAS query after the change", () => viaSas(policySas));
  await step("policy SAS insert after the change", () => new TableClient(endpoint, name, new AzureSASCredential(policySas), opts).createEntity({ partitionKey: "p", rowKey: "2" }));
  await step("policy SAS repeating the policy's permission", () =>
    viaSas(generateTableSas(name, cred, { identifier: "p1", permissions: { query: true }, protocol: "https,http" })),
  );
  await step("delete service table", () => s.deleteTable());
}
