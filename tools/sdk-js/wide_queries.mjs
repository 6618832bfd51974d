// wide_queries.mjs: the conformance suite's steps on queries: filters on
// every EDM type and operator, with and without parentheses and on
// properties some entities lack; $select of missing properties; paging
// with $top and continuations across many pages and partitions; invalid
// $top values; table listing by name ranges. Cases shared with the Python
// scripts come from tools/steps-data.json. See steps.mjs.
import { readFileSync } from "node:fs";
import { answer, request } from "./rest.mjs";

const data = JSON.parse(readFileSync(new URL("../steps-data.json", import.meta.url), "utf8"));

export async function queries({ step, table, svc, t, prefix, props, keysOf, endpoint }) {
  const f = table(t("filters"));
  const url = `${endpoint}/${t("filters")}`;
  await step("filters setup", async () => {
    await f.createTable();
    const out = [];
    for (const row of data.filterRows) out.push((await request(f, "POST", url, { body: JSON.stringify(row), headers: { Prefer: "return-no-content" } })).status);
    return out;
  });
  const query = (filter) => keysOf(f.listEntities({ queryOptions: { filter } }));
  for (const [name, literal] of data.typedFilters)
    for (const op of data.operators) await step(`filter ${name} ${op}`, () => query(`${name} ${op} ${literal}`));
  for (const [name, filter] of data.filters) await step(name, () => query(filter));

  for (const [name, select] of data.selects)
    await step(name, async () => {
      const out = [];
      for await (const e of f.listEntities({ queryOptions: { filter: "PartitionKey eq 'f'", select } })) out.push(props(e));
      return out;
    });
  await step("point read selecting a missing property", async () => props(await f.getEntity("f", "5", { queryOptions: { select: ["Nope"] } })));
  await step("raw select only a missing property", async () =>
    answer(await request(f, "GET", `${url}()?$filter=${encodeURIComponent("RowKey eq '4'")}&$select=Nope,Gone`), { body: true }),
  );

  for (const [name, top] of [
    ["$top=0", "0"],
    ["$top=-1", "-1"],
    ["$top=abc", "abc"],
    ["$top=1000", "1000"],
    ["$top=1001", "1001"],
  ])
    await step(`raw query ${name}`, async () => {
      const res = await request(f, "GET", `${url}()?$top=${top}`);
      const a = answer(res, { body: true });
      if (a.body?.value) a.body = a.body.value.map((e) => `${e.PartitionKey}/${e.RowKey}`);
      return a;
    });

  const p = table(t("pages"));
  await step("pages setup", async () => {
    await p.createTable();
    for (let part = 0; part < 6; part++) {
      const acts = [];
      for (let i = 0; i < 50; i++) acts.push(["create", { partitionKey: `p${part}`, rowKey: String(i).padStart(3, "0"), I: i }]);
      await p.submitTransaction(acts);
    }
  });
  const pages = async (opts, size) => {
    const sizes = [];
    const keys = [];
    for await (const page of p.listEntities(opts).byPage({ maxPageSize: size })) {
      sizes.push(page.length);
      for (const e of page) keys.push(`${e.partitionKey}/${e.rowKey}`);
    }
    return { pages: sizes.length, sizes: [...new Set(sizes)].sort((a, b) => a - b), total: keys.length, distinct: new Set(keys).size, first: keys[0], last: keys[keys.length - 1], sorted: keys.join() === [...keys].sort().join() };
  };
  await step("pages of 7 over 6 partitions", () => pages({}, 7));
  await step("pages of 1 in one partition", () => pages({ queryOptions: { filter: "PartitionKey eq 'p3'" } }, 1));
  await step("pages of 13 with a filter across partitions", () => pages({ queryOptions: { filter: "I ge 20 and I lt 31" } }, 13));
  await step("pages of 1000", () => pages({}, 1000));
  await step("pages with a select", () => pages({ queryOptions: { select: ["PartitionKey", "RowKey"] } }, 64));
  await step("pages of a filter that matches none", () => pages({ queryOptions: { filter: "I eq -1" } }, 5));
  await step("pages of a partition range", () => pages({ queryOptions: { filter: "PartitionKey gt 'p1' and PartitionKey le 'p3' and RowKey ge '045'" } }, 4));
  await step("raw continuation resumes where it left", async () => {
    const first = await request(p, "GET", `${endpoint}/${t("pages")}()?$top=3&$filter=${encodeURIComponent("PartitionKey eq 'p5' or PartitionKey eq 'p0'")}`);
    const npk = first.headers.get("x-ms-continuation-NextPartitionKey");
    const nrk = first.headers.get("x-ms-continuation-NextRowKey");
    const next = await request(p, "GET", `${endpoint}/${t("pages")}()?$top=3&$filter=${encodeURIComponent("PartitionKey eq 'p5' or PartitionKey eq 'p0'")}&NextPartitionKey=${encodeURIComponent(npk)}&NextRowKey=${encodeURIComponent(nrk)}`);
    const keys = (r) => JSON.parse(r.bodyAsText).value.map((e) => `${e.PartitionKey}/${e.RowKey}`);
    return { first: keys(first), continues: Boolean(npk && nrk), next: keys(next) };
  });

  await step("tables setup", async () => {
    for (const n of ["ta1", "ta2", "tb1", "tb2", "tc1"]) await svc.createTable(t(n));
  });
  const names = async (filter, size) => {
    const out = [];
    const iter = svc.listTables({ queryOptions: { filter: `TableName ge '${prefix}t' and TableName lt '${prefix}u'` + (filter ? ` and ${filter}` : "") } });
    for await (const page of iter.byPage({ maxPageSize: size })) out.push(page.map((tb) => tb.name.slice(prefix.length)).join(","));
    return out;
  };
  await step("list tables in a name range", () => names("", 1000));
  await step("list tables by pages of 2", () => names("", 2));
  await step("list tables gt and le", () => names(`TableName gt '${prefix}ta1' and TableName le '${prefix}tb2'`, 1000));
  await step("list tables eq", () => names(`TableName eq '${prefix}tb1'`, 1000));
  await step("list tables ne", () => names(`TableName ne '${prefix}tb1'`, 1000));
  await step("list tables or", () => names(`(TableName eq '${prefix}ta2' or TableName eq '${prefix}tc1')`, 1000));
  await step("list tables not", () => names(`not (TableName lt '${prefix}tb')`, 1000));
  await step("delete query tables", async () => {
    for (const n of ["ta1", "ta2", "tb1", "tb2", "tc1", "filters", "pages"]) await svc.deleteTable(t(n));
  });
}
