// steps.mjs runs the conformance suite's sequence of steps with the Azure
// Tables JavaScript SDK (@azure/data-tables, pinned in package-lock.json)
// against the Table service of a connection string, and prints one JSON
// line per step: {"step": NAME, "result": ...}. The Go test
// pkg/emulator/sdk_conformance_test.go runs it against Azurite and the
// embedded service and diffs the lines. Results hold no timestamps, ETags
// or table names, so the same behaviour prints the same line.
//
// Usage: TABLESTRESS_CONN=... TABLESTRESS_PREFIX=abc node steps.mjs
import {
  AzureNamedKeyCredential,
  AzureSASCredential,
  TableClient,
  TableServiceClient,
  generateAccountSas,
  generateTableSas,
  odata,
} from "@azure/data-tables";
import { batches } from "./wide_batch.mjs";
import { queries } from "./wide_queries.mjs";
import { rules } from "./wide_rules.mjs";
import { service } from "./wide_service.mjs";
import { values } from "./wide_values.mjs";

const conn = process.env.TABLESTRESS_CONN;
const prefix = process.env.TABLESTRESS_PREFIX;
if (!conn || !prefix) {
  console.error("steps.mjs: set TABLESTRESS_CONN and TABLESTRESS_PREFIX");
  process.exit(2);
}
const settings = Object.fromEntries(
  conn.split(";").filter((kv) => kv.includes("=")).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
);
const endpoint = settings.TableEndpoint;
const cred = new AzureNamedKeyCredential(settings.AccountName, settings.AccountKey);
const opts = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };
const svc = TableServiceClient.fromConnectionString(conn, opts);
const table = (name) => TableClient.fromConnectionString(conn, name, opts);
const sasTable = (name, sas) => new TableClient(endpoint, name, new AzureSASCredential(sas), opts);

// failure is an SDK error as the suite compares it: status, error code,
// and the failing operation's index of a transaction ("1:..." messages).
function failure(e) {
  const out = { status: e.statusCode ?? "none" };
  const code = e.code ?? e.details?.errorCode ?? e.response?.headers?.get?.("x-ms-error-code");
  if (code && code !== "REQUEST_SEND_ERROR") out.code = code;
  const m = /(?:^|\n|")(\d+):/.exec(e.message ?? "");
  if (m) out.index = Number(m[1]);
  return out;
}

// step runs fn and prints its result: what fn returns, a transaction's
// statuses, or "ok" for another SDK response (headers and request ids,
// which differ from run to run).
async function step(name, fn) {
  let result;
  try {
    result = (await fn()) ?? "ok";
    if (typeof result === "object" && "subResponses" in result) result = { status: result.status, subResponses: result.subResponses.map((r) => r.status) };
    else if (typeof result === "object" && !Array.isArray(result) && ("requestId" in result || "clientRequestId" in result || "date" in result)) result = "ok";
  } catch (e) {
    result = { error: failure(e) };
  }
  console.log(JSON.stringify({ step: name, result }));
}

// props keeps an entity's user properties as "Type:value", untyped
// values named by their JavaScript type.
function props(e) {
  const out = {};
  for (const [k, v] of Object.entries(e).sort()) {
    if (["etag", "timestamp", "odata.metadata", "odata.etag"].includes(k)) continue;
    if (v && typeof v === "object" && "type" in v && "value" in v) out[k] = `${v.type}:${v.value}`;
    else out[k] = `${typeof v}:${v}`;
  }
  return out;
}

async function keysOf(iter) {
  const out = [];
  for await (const e of iter) out.push(`${e.partitionKey}/${e.rowKey}`);
  return out;
}

const t = (s) => prefix + s;
const main = table(t("main"));

await step("create table", () => svc.createTable(t("main")));
await step("create table twice", () => main.createTable());
await step("create table 1bad", () => svc.createTable("1bad"));
await step("create table ab", () => svc.createTable("ab"));
await step("list tables by name", async () => {
  await svc.createTable(t("other"));
  const names = [];
  for await (const tb of svc.listTables({ queryOptions: { filter: odata`TableName ge ${prefix} and TableName lt ${prefix + "~"}` } }))
    names.push(tb.name.slice(prefix.length));
  return names;
});

const edm = {
  partitionKey: "edm",
  rowKey: "all",
  Str: "text ü 🙂",
  Int32: 2147483647,
  Int64: { value: "9007199254740993", type: "Int64" },
  Double: 1.5,
  WholeDouble: { value: "2", type: "Double" },
  Bool: true,
  Date: new Date("2025-02-04T09:10:11.123Z"),
  Guid: { value: "0f8fad5b-d9cb-469f-a165-70867728950e", type: "Guid" },
  Bin: new Uint8Array([0, 1, 2, 254, 255]),
};
await step("insert every EDM type", () => main.createEntity(edm));
await step("read every EDM type", async () => props(await main.getEntity("edm", "all", { disableTypeConversion: true })));
await step("read every EDM type converted", async () => props(await main.getEntity("edm", "all")));

for (const [name, pk, rk] of [
  ["empty keys", "", ""],
  ["unicode keys", "ü日本", "🙂"],
  ["quoted keys", "it's", "o''clock"],
  ["spaced keys", "a b", " c "],
  ["percent and plus keys", "100%", "a+b"],
]) {
  await step(`insert ${name}`, () => main.createEntity({ partitionKey: pk, rowKey: rk, V: 1 }));
  await step(`read ${name}`, async () => props(await main.getEntity(pk, rk)));
}
for (const [name, pk] of [["slash", "a/b"], ["hash", "a#b"], ["question mark", "a?b"], ["backslash", "a\\b"], ["control character", "a\u0001b"]]) {
  await step(`insert a key with a ${name}`, () => main.createEntity({ partitionKey: pk, rowKey: "x" }));
}

await step("etag conditions", async () => {
  const out = [];
  const put = await main.createEntity({ partitionKey: "etag", rowKey: "1", V: 1 });
  const stale = put.etag;
  await main.updateEntity({ partitionKey: "etag", rowKey: "1", V: 2 }, "Replace", { etag: stale });
  out.push("update with etag ok");
  for (const [what, f] of [
    ["update stale", () => main.updateEntity({ partitionKey: "etag", rowKey: "1", V: 3 }, "Merge", { etag: stale })],
    ["delete stale", () => main.deleteEntity("etag", "1", { etag: stale })],
    ["update missing", () => main.updateEntity({ partitionKey: "etag", rowKey: "none", V: 3 }, "Merge")],
    ["delete missing", () => main.deleteEntity("etag", "none")],
    ["insert existing", () => main.createEntity({ partitionKey: "etag", rowKey: "1" })],
    ["delete any", () => main.deleteEntity("etag", "1", { etag: "*" })],
  ]) {
    try {
      await f();
      out.push(`${what} ok`);
    } catch (e) {
      out.push(`${what} ${JSON.stringify(failure(e))}`);
    }
  }
  return out;
});

await step("upserts", async () => {
  await main.upsertEntity({ partitionKey: "up", rowKey: "1", A: 1 }, "Merge");
  await main.upsertEntity({ partitionKey: "up", rowKey: "1", B: 2 }, "Merge");
  const merged = props(await main.getEntity("up", "1"));
  await main.upsertEntity({ partitionKey: "up", rowKey: "1", C: 3 }, "Replace");
  const replaced = props(await main.getEntity("up", "1"));
  await main.updateEntity({ partitionKey: "up", rowKey: "1", D: 4 }, "Merge");
  return { merged, replaced, updated: props(await main.getEntity("up", "1")) };
});

await step("batch of every operation", async () => {
  for (const rk of ["um", "ur", "d"]) await main.createEntity({ partitionKey: "batch", rowKey: rk, Old: 1 });
  await main.submitTransaction([
    ["create", { partitionKey: "batch", rowKey: "c", V: 1 }],
    ["update", { partitionKey: "batch", rowKey: "um", V: 1 }, "Merge"],
    ["update", { partitionKey: "batch", rowKey: "ur", V: 1 }, "Replace"],
    ["upsert", { partitionKey: "batch", rowKey: "sm", V: 1 }, "Merge"],
    ["upsert", { partitionKey: "batch", rowKey: "sr", V: 1 }, "Replace"],
    ["delete", { partitionKey: "batch", rowKey: "d" }],
  ]);
  const out = {};
  for await (const e of main.listEntities({ queryOptions: { filter: odata`PartitionKey eq 'batch'` } })) out[e.rowKey] = props(e);
  return out;
});
await step("batch failing in the middle", () =>
  main.submitTransaction([
    ["create", { partitionKey: "batch", rowKey: "n1" }],
    ["create", { partitionKey: "batch", rowKey: "c" }],
    ["delete", { partitionKey: "batch", rowKey: "um" }],
  ]),
);
await step("batch failing in the middle wrote nothing", async () =>
  keysOf(main.listEntities({ queryOptions: { filter: odata`PartitionKey eq 'batch'` } })),
);
await step("batch over two partitions", () =>
  main.submitTransaction([
    ["create", { partitionKey: "batch", rowKey: "two1" }],
    ["create", { partitionKey: "batch2", rowKey: "two2" }],
  ]),
);
await step("batch with an entity twice", () =>
  main.submitTransaction([
    ["upsert", { partitionKey: "batch", rowKey: "twice" }],
    ["delete", { partitionKey: "batch", rowKey: "twice" }],
  ]),
);

const paging = table(t("paging"));
await step("paging across partitions", async () => {
  await paging.createTable();
  for (const pk of ["p1", "p2", "p3"]) {
    const acts = [];
    for (let i = 0; i < 40; i++) acts.push(["create", { partitionKey: pk, rowKey: String(i).padStart(3, "0"), I: i, S: `s${i % 4}` }]);
    await paging.submitTransaction(acts);
  }
  const sizes = [];
  let keys = [];
  for await (const page of paging.listEntities().byPage({ maxPageSize: 25 })) {
    sizes.push(page.length);
    keys = keys.concat(page.map((e) => `${e.partitionKey}/${e.rowKey}`));
  }
  return { pages: sizes, total: keys.length, first: keys[0], last: keys[keys.length - 1], sorted: keys.join() === [...keys].sort().join() };
});
await step("$top", async () => {
  const it = paging.listEntities({ queryOptions: { filter: odata`PartitionKey eq 'p2'` } }).byPage({ maxPageSize: 3 });
  const first = (await it.next()).value;
  return first.map((e) => `${e.partitionKey}/${e.rowKey}`);
});
await step("$select", async () => {
  const out = [];
  for await (const e of paging.listEntities({ queryOptions: { filter: odata`PartitionKey eq 'p1' and RowKey lt '002'`, select: ["I"] } }))
    out.push(props(e));
  return out;
});
for (const [name, filter] of [
  ["filter Int32 range", "I ge 37 and I lt 39"],
  ["filter string or", "(S eq 's1' or S eq 's2') and PartitionKey eq 'p3' and I lt 8"],
  ["filter not", "not (I lt 39)"],
  ["filter RowKey range", "PartitionKey eq 'p2' and RowKey gt '036'"],
  ["filter missing property", "Nope eq 1"],
]) {
  await step(name, () => keysOf(paging.listEntities({ queryOptions: { filter } })));
}

await step("string of 32768 characters", () => main.createEntity({ partitionKey: "lim", rowKey: "s1", S: "x".repeat(32768) }));
await step("string of 32769 characters", () => main.createEntity({ partitionKey: "lim", rowKey: "s2", S: "x".repeat(32769) }));
await step("binary of 65537 bytes", () => main.createEntity({ partitionKey: "lim", rowKey: "b", B: new Uint8Array(65537) }));
await step("property name of 256 characters", () => main.createEntity({ partitionKey: "lim", rowKey: "n", ["n".repeat(256)]: 1 }));
await step("property name not an identifier", () => main.createEntity({ partitionKey: "lim", rowKey: "n2", "bad name": 1 }));
const big = { partitionKey: "lim", rowKey: "big" };
for (let i = 0; i < 16; i++) big[`S${i}`] = "x".repeat(32768);
await step("entity over 1 MiB", () => main.createEntity(big));
await step("entity over 1 MiB in a batch", () =>
  main.submitTransaction([["create", { partitionKey: "lim", rowKey: "small" }], ["create", { ...big, rowKey: "bigbatch" }]]),
);
const many = { partitionKey: "lim", rowKey: "many" };
for (let i = 0; i < 253; i++) many[`P${i}`] = i;
await step("253 properties", () => main.createEntity(many));

// SAS and ACL, on a table of their own.
const sasName = t("sas");
const sasT = table(sasName);
const hour = () => new Date(Date.now() + 3600e3);
await step("SAS setup", async () => {
  await sasT.createTable();
  for (const [pk, rk] of [["a", "1"], ["b", "1"], ["b", "3"], ["c", "1"], ["e", "1"]]) await sasT.createEntity({ partitionKey: pk, rowKey: rk });
});
const rangeSas = generateTableSas(sasName, cred, {
  permissions: { query: true, add: true },
  expiresOn: hour(),
  protocol: "https,http",
  startPartitionKey: "b",
  startRowKey: "2",
  endPartitionKey: "d",
});
const ranged = sasTable(sasName, rangeSas);
await step("table SAS query", () => keysOf(ranged.listEntities()));
await step("table SAS insert in range", () => ranged.createEntity({ partitionKey: "c", rowKey: "2" }));
await step("table SAS insert out of range", () => ranged.createEntity({ partitionKey: "z", rowKey: "1" }));
await step("table SAS delete without d", () => ranged.deleteEntity("c", "1"));
await step("table SAS on another table", () => sasTable(t("main"), rangeSas).getEntity("edm", "all").then(() => "ok"));
const expired = generateTableSas(sasName, cred, { permissions: { query: true }, expiresOn: new Date(Date.now() - 60e3), protocol: "https,http" });
await step("expired table SAS", () => keysOf(sasTable(sasName, expired).listEntities()));
const tampered = rangeSas.replace(/sig=[^&]*/, "sig=" + encodeURIComponent(Buffer.alloc(32, 7).toString("base64")));
await step("table SAS with a wrong signature", () => keysOf(sasTable(sasName, tampered).listEntities()));
const objectOnly = generateAccountSas(cred, {
  expiresOn: hour(),
  protocol: "https,http",
  resourceTypes: "o",
  permissions: { query: true, list: true, add: true, write: true },
});
const acct = (sas) => new TableServiceClient(endpoint, new AzureSASCredential(sas), opts);
await step("account SAS srt=o lists tables", async () => {
  const out = [];
  for await (const tb of acct(objectOnly).listTables()) out.push(tb.name);
  return out.length > 0;
});
await step("account SAS srt=o reads entities", () => keysOf(sasTable(sasName, objectOnly).listEntities()));
const readList = generateAccountSas(cred, {
  expiresOn: hour(),
  protocol: "https,http",
  resourceTypes: "sco",
  permissions: { query: true, list: true },
});
await step("account SAS without w creates a table", () => acct(readList).createTable(t("denied")));
await step("account SAS without d deletes an entity", () => sasTable(sasName, readList).deleteEntity("a", "1"));

await step("set ACL", () =>
  sasT.setAccessPolicy([
    { id: "readers", accessPolicy: { permission: "r", start: new Date("2025-01-01T00:00:00Z"), expiry: new Date("2035-01-01T00:00:00Z") } },
    { id: "writers", accessPolicy: { permission: "raud", start: new Date("2025-01-01T00:00:00Z"), expiry: new Date("2026-01-01T00:00:00Z") } },
  ]),
);
await step("get ACL", async () =>
  (await sasT.getAccessPolicy()).map((p) => ({
    id: p.id,
    permission: p.accessPolicy?.permission,
    start: p.accessPolicy?.start && new Date(p.accessPolicy.start).toISOString(),
    expiry: p.accessPolicy?.expiry && new Date(p.accessPolicy.expiry).toISOString(),
  })),
);
const policySas = generateTableSas(sasName, cred, { identifier: "readers", protocol: "https,http" });
await step("policy SAS query", () => keysOf(sasTable(sasName, policySas).listEntities({ queryOptions: { filter: "PartitionKey lt 'd'" } })));
await step("policy SAS insert", () => sasTable(sasName, policySas).createEntity({ partitionKey: "p", rowKey: "1" }));
await step("set ACL of six policies", () =>
  sasT.setAccessPolicy(
    ["1", "2", "3", "4", "5", "6"].map((id) => ({ id, accessPolicy: { permission: "r", start: new Date("2025-01-01T00:00:00Z"), expiry: new Date("2035-01-01T00:00:00Z") } })),
  ),
);
await step("remove ACL", () => sasT.setAccessPolicy([]));
await step("revoked policy SAS query", () => keysOf(sasTable(sasName, policySas).listEntities()));

// The wider steps, area by area (wide_*.mjs).
const ctx = { step, table, svc, t, prefix, props, keysOf, failure, endpoint, cred, opts, odata, TableServiceClient, TableClient, AzureSASCredential, generateTableSas, generateAccountSas };
await values(ctx);
await queries(ctx);
await batches(ctx);
await service(ctx);
await rules(ctx);

await step("delete tables", async () => {
  for (const n of ["main", "other", "paging", "sas"]) await svc.deleteTable(t(n));
});
await step("delete table missing", () => table(t("main")).deleteTable());
