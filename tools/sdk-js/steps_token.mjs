// steps_token.mjs signs in with the Azure Identity JavaScript SDK (@azure/identity,
// pinned in package-lock.json) to the token authority of `tablestress
// emulator --tls --entra`, with a client secret or a workload identity's
// federated token, and runs table steps with the Azure Tables SDK over
// HTTPS with its bearer tokens, printing one JSON line per step:
// {"step": NAME, "result": ...}. The Go test cmd/tablestress's
// TestEmulatorEntraSDKs runs it as the contributor and as the reader the
// emulator prints and checks each step's answer.
//
// Usage (the environment tablestress emulator --tls --entra prints):
//   AZURE_AUTHORITY_HOST=... AZURE_TENANT_ID=... AZURE_CLIENT_ID=...
//   AZURE_CLIENT_SECRET=... (or AZURE_FEDERATED_TOKEN_FILE=...)
//   NODE_EXTRA_CA_CERTS=ca.pem TABLESTRESS_ENDPOINT=https://127.0.0.1:PORT/devstoreaccount1
//   TABLESTRESS_TABLE=NAME node steps_token.mjs
// TABLESTRESS_TABLE names a table holding the entity (p, seed); the steps
// also create and delete the table NAME + "tok".
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { ClientSecretCredential, WorkloadIdentityCredential } from "@azure/identity";

const env = process.env;
const endpoint = env.TABLESTRESS_ENDPOINT;
const name = env.TABLESTRESS_TABLE;
if (!endpoint || !name || !env.AZURE_AUTHORITY_HOST || !env.AZURE_TENANT_ID || !env.AZURE_CLIENT_ID) {
  console.error("steps_token.mjs: set TABLESTRESS_ENDPOINT, TABLESTRESS_TABLE and the AZURE_ variables tablestress emulator --entra prints");
  process.exit(2);
}
// The authority is on this machine: instance discovery (a question to
// login.microsoftonline.com about it) is off.
const common = { authorityHost: env.AZURE_AUTHORITY_HOST, disableInstanceDiscovery: true };
const cred = env.AZURE_FEDERATED_TOKEN_FILE
  ? new WorkloadIdentityCredential({ ...common, tenantId: env.AZURE_TENANT_ID, clientId: env.AZURE_CLIENT_ID, tokenFilePath: env.AZURE_FEDERATED_TOKEN_FILE })
  : new ClientSecretCredential(env.AZURE_TENANT_ID, env.AZURE_CLIENT_ID, env.AZURE_CLIENT_SECRET, common);
const opts = { retryOptions: { maxRetries: 0 } };
const svc = new TableServiceClient(endpoint, cred, opts);
const table = new TableClient(endpoint, name, cred, opts);

// failure is an SDK error as the test compares it: status and error code.
function failure(e) {
  const out = { status: e.statusCode ?? "none" };
  const code = e.code ?? e.details?.errorCode;
  if (code && code !== "REQUEST_SEND_ERROR") out.code = code;
  if (out.status === "none") out.message = String(e.message ?? e).split("\n")[0];
  return out;
}

async function step(name, fn) {
  let result;
  try {
    result = (await fn()) ?? "ok";
  } catch (e) {
    result = { error: failure(e) };
  }
  console.log(JSON.stringify({ step: name, result }));
}

await step("list tables", async () => {
  for await (const t of svc.listTables({ queryOptions: { filter: `TableName eq '${name}'` } })) {
    if (t.name === name) return "found";
  }
  return "missing";
});
await step("create table", async () => { await svc.createTable(name + "tok"); });
await step("read entity", async () => (await table.getEntity("p", "seed")).V);
await step("query", async () => {
  let n = 0;
  for await (const _ of table.listEntities({ queryOptions: { filter: "PartitionKey eq 'p'" } })) n++;
  return n > 0 ? "some" : "none";
});
await step("insert entity", async () => { await table.createEntity({ partitionKey: "p", rowKey: "by-token", V: 2 }); });
await step("delete entity", async () => { await table.deleteEntity("p", "by-token"); });
await step("delete table", async () => { await svc.deleteTable(name + "tok"); });
