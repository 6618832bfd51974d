"""steps_token.py signs in with the Azure Identity Python SDK (azure.identity,
Debian's python3-azure, with MSAL for Python) to the token authority of
`tablestress emulator --tls --entra`, with a client secret or a workload
identity's federated token (as its client assertion), and runs table steps
with the Azure Tables SDK over HTTPS with its bearer tokens, printing one
JSON line per step: {"step": NAME, "result": ...}. The Go test
cmd/tablestress's TestEmulatorEntraSDKs runs it as the contributor and as
the reader the emulator prints and checks each step's answer.

Usage (the environment tablestress emulator --tls --entra prints):
  AZURE_AUTHORITY_HOST=... AZURE_TENANT_ID=... AZURE_CLIENT_ID=...
  AZURE_CLIENT_SECRET=... (or AZURE_FEDERATED_TOKEN_FILE=...)
  REQUESTS_CA_BUNDLE=ca.pem TABLESTRESS_ENDPOINT=https://127.0.0.1:PORT/devstoreaccount1
  TABLESTRESS_TABLE=NAME /usr/bin/python3 steps_token.py
TABLESTRESS_TABLE names a table holding the entity (p, seed); the steps
also create and delete the table NAME + "tok".
"""

import os
import sys

from azure.data.tables import TableClient, TableServiceClient
from azure.identity import ClientAssertionCredential, ClientSecretCredential

from steplib import step

env = os.environ
endpoint, name = env.get("TABLESTRESS_ENDPOINT"), env.get("TABLESTRESS_TABLE")
if not (endpoint and name and env.get("AZURE_AUTHORITY_HOST") and env.get("AZURE_TENANT_ID") and env.get("AZURE_CLIENT_ID")):
    print("steps_token.py: set TABLESTRESS_ENDPOINT, TABLESTRESS_TABLE and the AZURE_ variables tablestress emulator --entra prints", file=sys.stderr)
    sys.exit(2)

authority = env["AZURE_AUTHORITY_HOST"]
if env.get("AZURE_FEDERATED_TOKEN_FILE"):
    path = env["AZURE_FEDERATED_TOKEN_FILE"]

    def assertion():
        with open(path, encoding="utf-8") as f:
            return f.read().strip()

    # This azure.identity posts the assertion to the token endpoint itself
    # (no MSAL, no discovery), of the authority AZURE_AUTHORITY_HOST names
    # (its keyword arguments break this version's constructor).
    cred = ClientAssertionCredential(env["AZURE_TENANT_ID"], env["AZURE_CLIENT_ID"], assertion)
else:
    # MSAL for Python: instance discovery (a question to
    # login.microsoftonline.com about the authority) is off, the authority
    # being on this machine.
    cred = ClientSecretCredential(env["AZURE_TENANT_ID"], env["AZURE_CLIENT_ID"], env["AZURE_CLIENT_SECRET"],
                                  authority=authority, instance_discovery=False)
svc = TableServiceClient(endpoint, credential=cred, retry_total=0)
table = TableClient(endpoint, name, credential=cred, retry_total=0)


def list_tables():
    found = [t.name for t in svc.query_tables("TableName eq @n", parameters={"n": name})]
    return "found" if name in found else "missing"


step("list tables", list_tables)
step("create table", lambda: svc.create_table(name + "tok") and None)
step("read entity", lambda: table.get_entity("p", "seed")["V"])
step("query", lambda: "some" if list(table.query_entities("PartitionKey eq 'p'")) else "none")
step("insert entity", lambda: table.create_entity({"PartitionKey": "p", "RowKey": "by-token", "V": 2}) and None)
step("delete entity", lambda: table.delete_entity("p", "by-token"))
step("delete table", lambda: svc.delete_table(name + "tok"))
