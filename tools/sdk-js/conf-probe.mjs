import { TableClient, AzureNamedKeyCredential, odata } from "@azure/data-tables";
import { request, answer } from "./rest.mjs";
const port = process.argv[2];
const ep = `http://127.0.0.1:${port}/devstoreaccount1`;
const c = new TableClient(ep, "probe" + Date.now(), new AzureNamedKeyCredential("devstoreaccount1", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="), { allowInsecureConnection: true });
await c.createTable();
const url = `${ep}/${c.tableName}`;
let i = 0;
for (const b of ['"@x":1', '"x@":1', '"x@custom":2,"x":1', '"y@custom":2', '"odata.foo":1', '"a.b":1', '"v":-0.0', '"v":"-0","v@odata.type":"Edm.Double"', '"v":"1.8e308","v@odata.type":"Edm.Double"', '"v":1e309', '"v":"Infinity","v@odata.type":"Edm.Double"', '"v@odata.type":"Edm.Int32"']) {
  const rk = "r" + i++;
  const res = await request(c, "POST", url, { body: `{"PartitionKey":"p","RowKey":"${rk}",${b}}`, headers: { Prefer: "return-content" } });
  const a = answer(res, { raw: true });
  if (a.text) a.text = a.text.replace(/.*"RowKey":"[^"]*",?/, "").replace(/"Timestamp[^,]*,?/g, "");
  console.log(b, JSON.stringify(a));
}
for (const f of ["V eq null", "null eq V", "V ne null"]) {
  const res = await request(c, "GET", `${url}()?$filter=${encodeURIComponent(f)}`);
  console.log(f, JSON.stringify(answer(res, { body: true })), res.bodyAsText.slice(0, 160));
}
