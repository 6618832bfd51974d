// wide_values.mjs: the conformance suite's steps on values as Azure reads
// and writes them: every EDM type's edge values through the SDK, and the
// JSON forms an SDK (or Storage Explorer) may send that the SDK's own
// serializer never writes (typed strings, a DateTime without a zone, Guids
// in braces), sent raw through the SDK's pipeline. See steps.mjs.
import { readFileSync } from "node:fs";
import { answer, rawProps, request } from "./rest.mjs";

const data = JSON.parse(readFileSync(new URL("../steps-data.json", import.meta.url), "utf8"));

// edges are (step name, property value as the SDK takes it).
const edges = [
  ["Int64 maximum", { value: "9223372036854775807", type: "Int64" }],
  ["Int64 minimum", { value: "-9223372036854775808", type: "Int64" }],
  ["Int32 minimum", -2147483648],
  ["Int32 over its maximum", { value: "2147483648", type: "Int32" }],
  ["Double NaN", { value: "NaN", type: "Double" }],
  ["Double Infinity", { value: "Infinity", type: "Double" }],
  ["Double -Infinity", { value: "-Infinity", type: "Double" }],
  ["Double -0", { value: "-0", type: "Double" }],
  ["Double maximum", 1.7976931348623157e308],
  ["Double smallest subnormal", 5e-324],
  ["DateTime to 100 ns", { value: "2025-02-04T09:10:11.1234567Z", type: "DateTime" }],
  ["DateTime before 1900", { value: "1850-06-30T12:00:00Z", type: "DateTime" }],
  ["DateTime minimum", { value: "1601-01-01T00:00:00Z", type: "DateTime" }],
  ["DateTime before 1601", { value: "1600-12-31T23:59:59Z", type: "DateTime" }],
  ["DateTime maximum", { value: "9999-12-31T23:59:59.9999999Z", type: "DateTime" }],
  ["Binary of 65536 bytes", new Uint8Array(65536).map((_, i) => i % 251)],
  ["Binary empty", new Uint8Array(0)],
  ["Guid upper-case", { value: "0F8FAD5B-D9CB-469F-A165-70867728950E", type: "Guid" }],
  ["String outside the basic plane", "\u{1D11E}\u{1F600} a"],
  ["String of 16384 characters outside the basic plane", "\u{1F600}".repeat(16384)],
  ["String of 16385 characters outside the basic plane", "\u{1F600}".repeat(16385)],
  ["String empty", ""],
  ["Boolean false", false],
];

// brief keeps a long value's length and ends, so a step line stays short.
function brief(p) {
  const out = {};
  for (const [k, v] of Object.entries(p)) {
    const cps = typeof v === "string" ? Array.from(v) : [];
    out[k] = cps.length > 80 ? `${cps.slice(0, 30).join("")}...(${cps.length} code points)...${cps.slice(-20).join("")}` : v;
  }
  return out;
}


export async function values({ step, table, t, props, endpoint }) {
  const v = table(t("values"));
  await step("values table", () => v.createTable());
  let i = 0;
  for (const [name, val] of edges) {
    const rk = String(i++).padStart(3, "0");
    await step(`insert ${name}`, () => v.createEntity({ partitionKey: "edge", rowKey: rk, V: val }));
    await step(`read ${name}`, async () => brief(props(await v.getEntity("edge", rk, { disableTypeConversion: true }))));
  }

  // Keys outside the basic plane and keys as long as Azure allows them,
  // counted as Azure counts them.
  for (const [name, pk, rk] of [
    ["keys outside the basic plane", "\u{1D11E}", "\u{1F600}x"],
    ["RowKey of 400 CJK characters", "cjk", "\u65e5".repeat(400)],
    ["RowKey of 512 characters", "len", "r".repeat(512)],
    ["RowKey of 513 characters", "len", "s".repeat(513)],
    ["RowKey of 1024 characters", "len", "t".repeat(1024)],
    ["RowKey of 1025 characters", "len", "u".repeat(1025)],
  ]) {
    await step(`insert ${name}`, () => v.createEntity({ partitionKey: pk, rowKey: rk, V: 1 }));
    await step(`read ${name}`, async () => brief(props(await v.getEntity(pk, rk))));
  }

  const url = `${endpoint}/${t("values")}`;
  i = 0;
  // rawBodies are entities as an application may write them by hand: each
  // step inserts one raw and reads it back raw (what the service wrote).
  for (const [name, members] of data.rawBodies) {
    const rk = String(i++).padStart(3, "0");
    const ent = `{"PartitionKey":"raw","RowKey":"${rk}",${members}}`;
    await step(`raw insert ${name}`, async () => answer(await request(v, "POST", url, { body: ent, headers: { Prefer: "return-no-content" } })));
    await step(`raw read ${name}`, async () => {
      const res = await request(v, "GET", `${url}(PartitionKey='raw',RowKey='${rk}')`, { headers: { Accept: "application/json;odata=minimalmetadata" } });
      return res.status === 200 ? rawProps(res.bodyAsText) : answer(res);
    });
  }
  await step("raw insert without a RowKey", async () =>
    answer(await request(v, "POST", url, { body: JSON.stringify({ PartitionKey: "raw", V: 1 }) })),
  );
  await step("raw insert without a PartitionKey", async () =>
    answer(await request(v, "POST", url, { body: JSON.stringify({ RowKey: "nopk", V: 1 }) })),
  );
  await step("raw insert with a null RowKey", async () =>
    answer(await request(v, "POST", url, { body: JSON.stringify({ PartitionKey: "raw", RowKey: null }) })),
  );
  await step("insert without a RowKey", () => v.createEntity({ partitionKey: "raw", V: 1 }));
  await step("delete values table", () => v.deleteTable());
}
