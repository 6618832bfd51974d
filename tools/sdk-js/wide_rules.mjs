// wide_rules.mjs: the conformance suite's steps on the rules Azurite's own
// table suites encode (docs/conformance.md R20–R28): weak ETags, the order
// of keys outside the basic plane, a SAS naming a stored access policy
// without tn, CORS refusals in Azure's words, a SAS beside a Shared Key
// Lite header, nulls, annotations, the null literal, Guid ranges and what
// the SDK sends for Infinity and an invalid Date. See steps.mjs.
import { createHmac } from "node:crypto";
import { answer, request } from "./rest.mjs";

// utf16Keys are keys in Azure's order, by UTF-16 code units: characters
// outside the basic plane (surrogate pairs) before U+E000–U+FFFF.
const utf16Keys = ["a", "\uD7FF", "\u{10437}", "\u{1F642}", "\u{24B62}", "\uE000", "\uFFEE"];

// refusal is a preflight's answer: status, code and its message's first
// line, from the JSON or the XML error.
async function refusal(res) {
  const text = await res.text();
  const code = /"code":"([^"]+)"|<Code>([^<]+)</.exec(text);
  const msg = /"value":"([^"\\]*)|<Message>([^<\n]*)/.exec(text);
  return { status: res.status, code: code?.[1] ?? code?.[2], message: msg?.[1] ?? msg?.[2] };
}

// sharedKeyLite signs a request the way Azurite's raw REST suites do: over
// /account/account/PATH, with whatever date the request carries ("" for
// none).
function sharedKeyLite(cred, path, date) {
  const sig = createHmac("sha256", Buffer.from(cred.key, "base64")).update(`${date}\n/${cred.name}/${cred.name}/${path}`, "utf8").digest("base64");
  return `SharedKeyLite ${cred.name}:${sig}`;
}

export async function rules({ step, table, svc, t, props, keysOf, failure, endpoint, cred, opts, TableClient, AzureSASCredential, generateAccountSas }) {
  const r = table(t("rules"));
  const url = `${endpoint}/${t("rules")}`;
  await step("rules setup", () => r.createTable());

  // R20: any well-formed weak ETag is a condition; one never issued is 412.
  await step("update with weak ETags never issued", async () => {
    await r.createEntity({ partitionKey: "etag", rowKey: "1", V: 1 });
    const out = [];
    for (const etag of ['W/"wrong"', 'w/"wrong"', "w/\"datetime'2015-01-01T23%3A14%3A33.4980000Z'\"", '"wrong"']) {
      try {
        await r.updateEntity({ partitionKey: "etag", rowKey: "1", V: 2 }, "Replace", { etag });
        out.push(`${etag} ok`);
      } catch (e) {
        out.push(`${etag} ${JSON.stringify(failure(e))}`);
      }
    }
    return out;
  });

  // R21: keys in UTF-16 order, in answers, pages, continuations and ranges.
  await step("keys outside the basic plane setup", async () => {
    for (const k of [...utf16Keys].reverse()) {
      await r.createEntity({ partitionKey: `o${k}`, rowKey: "r" });
      await r.createEntity({ partitionKey: "o", rowKey: k });
    }
  });
  const ordered = (filter) => keysOf(r.listEntities({ queryOptions: { filter } }));
  await step("keys outside the basic plane in order", () => ordered("PartitionKey ge 'o' and PartitionKey lt 'p'"));
  await step("keys outside the basic plane in pages of two", async () => {
    const out = [];
    for await (const page of r.listEntities({ queryOptions: { filter: "PartitionKey ge 'o' and PartitionKey lt 'p'" } }).byPage({ maxPageSize: 2 }))
      out.push(page.map((e) => `${e.partitionKey}/${e.rowKey}`));
    return out;
  });
  await step("RowKey gt a surrogate pair", () => ordered("PartitionKey eq 'o' and RowKey gt '\u{1F642}'"));
  await step("PartitionKey lt U+FFFF", () => ordered("PartitionKey ge 'o\uD7FF' and PartitionKey lt 'o\uFFFF'"));
  await step("RowKey between a surrogate pair and U+E000", () => ordered("PartitionKey eq 'o' and RowKey ge '\u{10437}' and RowKey lt '\uE000'"));

  // R22: a SAS naming a stored access policy, every ad hoc field blank and
  // no tn, signs the table its request addresses (as Azurite's sas.test.ts
  // test 9 builds it).
  const name = t("rules");
  const noTableName = () => {
    const toSign = `\n\n\n/table/${cred.name}/${name.toLowerCase()}\nnotn\n\nhttps,http\n2020-10-02\n\n\n\n`;
    const sig = createHmac("sha256", Buffer.from(cred.key, "base64")).update(toSign, "utf8").digest("base64");
    return `sv=2020-10-02&si=notn&spr=${encodeURIComponent("https,http")}&sig=${encodeURIComponent(sig)}`;
  };
  const policy = (permission) => [{ id: "notn", accessPolicy: { permission, start: new Date("2017-12-31T11:22:33Z"), expiry: new Date("2035-01-01T00:00:00Z") } }];
  const viaNoTableName = () => new TableClient(endpoint, name, new AzureSASCredential(noTableName()), opts);
  await step("policy without tn setup", () => r.setAccessPolicy(policy("raud")));
  await step("policy SAS without tn insert", () => viaNoTableName().createEntity({ partitionKey: "sas", rowKey: "1" }));
  await step("policy without tn changed to read", () => r.setAccessPolicy(policy("r")));
  await step("policy SAS without tn insert after the change", () => viaNoTableName().createEntity({ partitionKey: "sas", rowKey: "2" }));
  await step("policy SAS without tn query", () => keysOf(viaNoTableName().listEntities({ queryOptions: { filter: "PartitionKey eq 'sas'" } })));

  // R23: CORS refusals in Azure's words.
  await step("CORS refusals setup", () =>
    svc.setProperties({ cors: [{ allowedOrigins: "test", allowedMethods: "GET", allowedHeaders: "header", exposedHeaders: "*", maxAgeInSeconds: 8888 }] }),
  );
  await step("CORS preflight no rule allows, in Azure's words", async () =>
    refusal(await fetch(`${url}()`, { method: "OPTIONS", headers: { Origin: "test", "Access-Control-Request-Method": "PUT" } })),
  );
  await step("CORS preflight without a request method, in Azure's words", async () =>
    refusal(await fetch(`${url}()`, { method: "OPTIONS", headers: { Origin: "test" } })),
  );
  await step("CORS refusals cleanup", () => svc.setProperties({ cors: [] }));

  // R24: a SAS beside a Shared Key Lite header, as Azurite's raw REST
  // suites send them: the header is what Azure authenticates by.
  const sas = generateAccountSas(cred, {
    expiresOn: new Date(Date.now() + 3600e3),
    resourceTypes: "sco",
    permissions: { query: true, list: true, add: true, write: true, delete: true },
  });
  const both = (path, signedPath, date) => {
    const headers = { Accept: "application/json;odata=nometadata", Authorization: sharedKeyLite(cred, signedPath, date ?? "") };
    if (date) headers["x-ms-date"] = date;
    return fetch(`${endpoint}/${path}?${sas}`, { headers }).then((res) => ({ status: res.status }));
  };
  await step("SAS and a Shared Key Lite signed without a date", () => both(`${name}()`, `${name}()`));
  await step("SAS and a Shared Key Lite signed over another path", () => both(`${name}()`, name, new Date().toUTCString()));
  await step("SAS and a good Shared Key Lite", () => both(`${name}()`, `${name}()`, new Date().toUTCString()));

  // R25, R26: nulls and annotations.
  const raw = async (rk, members) => {
    const res = await request(r, "POST", url, { body: `{"PartitionKey":"n","RowKey":"${rk}",${members}}`, headers: { Prefer: "return-no-content" } });
    return answer(res);
  };
  const read = async (rk) => props(await r.getEntity("n", rk));
  for (const [rk, what, members] of [
    ["1", "a typed null", '"V":null,"V@odata.type":"Edm.Int32"'],
    ["2", "a custom annotation", '"X@custom.term":1,"X":2'],
    ["3", "an odata member", '"odata.foo":1,"Y":3'],
  ]) {
    await step(`raw insert of ${what}`, () => raw(rk, members));
    await step(`read ${what}`, () => read(rk));
  }
  await step("raw insert of a name an @ begins", () => raw("4", '"@x":1'));
  await step("raw insert of a name an @ ends", () => raw("5", '"x@":1'));
  await step("insert of the SDK's Double Infinity", () => r.createEntity({ partitionKey: "n", rowKey: "6", V: { value: Number.POSITIVE_INFINITY, type: "Double" } }));
  await step("insert of the SDK's invalid Date", () => r.createEntity({ partitionKey: "n", rowKey: "7", V: new Date("") }));
  await step("read what the SDK sent for Infinity and an invalid Date", async () => [await read("6").catch(failure), await read("7").catch(failure)]);

  // R28: Guids compare as values.
  await step("Guid range setup", async () => {
    for (const [rk, g] of [["1", "00000000-0000-0000-0000-000000000001"], ["2", "0f8fad5b-d9cb-469f-a165-70867728950e"], ["3", "f0000000-0000-0000-0000-000000000000"]])
      await r.createEntity({ partitionKey: "g", rowKey: rk, G: { value: g, type: "Guid" } });
    await r.createEntity({ partitionKey: "g", rowKey: "4" });
  });

  // R27: the null literal in a filter.
  await step("filter with the null literal", () => ordered("PartitionKey eq 'g' and G eq null"));

  await step("filter Guid gt", () => ordered("PartitionKey eq 'g' and G gt guid'0F8FAD5B-D9CB-469F-A165-70867728950E'"));
  await step("filter Guid lt", () => ordered("PartitionKey eq 'g' and G lt guid'0f8fad5b-d9cb-469f-a165-70867728950e'"));

  await step("delete rules table", () => r.deleteTable());
}
