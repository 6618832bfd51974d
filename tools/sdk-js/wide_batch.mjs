// wide_batch.mjs: the conformance suite's steps on entity group
// transactions mixing every operation: what each sub-response carries
// (the RowKey the SDK reads from its Location), conditions inside a
// changeset, failures at every position, the 100-operation limit. See
// steps.mjs.

// subs is a transaction's answer as the SDK gives it: each sub-response's
// status and the RowKey the SDK found for it.
const subs = (r) => ({ status: r.status, answers: r.subResponses.map((s) => `${s.status} ${s.rowKey ?? "no RowKey"}`) });

export async function batches({ step, table, t, props, keysOf, odata }) {
  const b = table(t("batches"));
  const all = async () => {
    const out = {};
    for await (const e of b.listEntities()) out[`${e.partitionKey}/${e.rowKey}`] = props(e);
    return out;
  };
  await step("batches setup", async () => {
    await b.createTable();
    for (const rk of ["d1", "d2", "m1", "r1", "e1"]) await b.createEntity({ partitionKey: "x", rowKey: rk, Old: 1 });
  });
  await step("batch sub-responses name their entities", async () =>
    subs(
      await b.submitTransaction([
        ["create", { partitionKey: "x", rowKey: "c1", V: 1 }],
        ["upsert", { partitionKey: "x", rowKey: "u1", V: 1 }, "Merge"],
        ["upsert", { partitionKey: "x", rowKey: "u2", V: 1 }, "Replace"],
        ["update", { partitionKey: "x", rowKey: "m1", V: 1 }, "Merge"],
        ["update", { partitionKey: "x", rowKey: "r1", V: 1 }, "Replace"],
        ["delete", { partitionKey: "x", rowKey: "d1" }],
      ]),
    ),
  );
  await step("batch wrote every operation", all);
  const etag = (await b.getEntity("x", "e1").catch(() => ({}))).etag;
  await step("batch update with the current ETag", async () => subs(await b.submitTransaction([["update", { partitionKey: "x", rowKey: "e1", V: 2 }, "Merge", { etag }]])));
  await step("batch update with a stale ETag", async () => subs(await b.submitTransaction([["create", { partitionKey: "x", rowKey: "c9" }], ["update", { partitionKey: "x", rowKey: "e1", V: 3 }, "Replace", { etag }]])));
  await step("batch failing first", async () => subs(await b.submitTransaction([["create", { partitionKey: "x", rowKey: "c1" }], ["create", { partitionKey: "x", rowKey: "c2" }]])));
  await step("batch failing last", async () =>
    subs(await b.submitTransaction([["create", { partitionKey: "x", rowKey: "c3" }], ["delete", { partitionKey: "x", rowKey: "d2" }], ["update", { partitionKey: "x", rowKey: "none", V: 1 }, "Merge"]])),
  );
  await step("batch delete missing", async () => subs(await b.submitTransaction([["delete", { partitionKey: "x", rowKey: "none" }]])));
  await step("batch replace missing", async () => subs(await b.submitTransaction([["update", { partitionKey: "x", rowKey: "none" }, "Replace"]])));
  await step("batch failures wrote nothing", all);
  await step("batch of deletes only", async () => subs(await b.submitTransaction([["delete", { partitionKey: "x", rowKey: "d2" }], ["delete", { partitionKey: "x", rowKey: "c1" }]])));
  await step("batch insert then merge of one entity", async () =>
    subs(await b.submitTransaction([["create", { partitionKey: "x", rowKey: "twice" }], ["update", { partitionKey: "x", rowKey: "twice", V: 1 }, "Merge"]])),
  );
  await step("batch of 100 operations", async () => {
    const acts = [];
    for (let i = 0; i < 100; i++) acts.push(["upsert", { partitionKey: "y", rowKey: String(i).padStart(3, "0"), I: i }, i % 2 ? "Merge" : "Replace"]);
    const r = await b.submitTransaction(acts);
    return { status: r.status, count: r.subResponses.length, statuses: [...new Set(r.subResponses.map((s) => s.status))], named: r.subResponses.filter((s) => s.rowKey).length };
  });
  await step("batch of 100 operations wrote them", async () => (await keysOf(b.listEntities({ queryOptions: { filter: odata`PartitionKey eq 'y'` } }))).length);
  await step("batch with empty keys", async () => subs(await b.submitTransaction([["create", { partitionKey: "", rowKey: "" }], ["upsert", { partitionKey: "", rowKey: "e", V: 1 }]])));
  await step("batch with keys outside the basic plane", async () =>
    subs(await b.submitTransaction([["create", { partitionKey: "\u{1D11E}", rowKey: "\u{1F600}" }], ["upsert", { partitionKey: "\u{1D11E}", rowKey: "it's", V: 1 }]])),
  );
  await step("batch on a missing table", async () => subs(await table(t("nosuch")).submitTransaction([["create", { partitionKey: "x", rowKey: "1" }]])));
  await step("batch final state", all);
  await step("delete batches table", () => b.deleteTable());
}
