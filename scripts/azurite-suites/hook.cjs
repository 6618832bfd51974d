// hook.cjs is required by mocha, after ts-node/register, in a checkout of
// Azurite's repository: it makes the servers its table suites create
// (tests/table/utils/TableTestServerFactory) start, stop and clean
// nothing, so the suites talk to whatever Table service listens where they
// expect theirs, 127.0.0.1:11002. The servers are still constructed, so
// the suites read their configuration as usual.
const path = require("path");

const serverBase = require(path.resolve("src/common/ServerBase")).default;
const tableServer = require(path.resolve("src/table/TableServer")).default;
const nothing = async () => {};
for (const proto of [serverBase.prototype, tableServer.prototype]) {
  proto.start = nothing;
  proto.close = nothing;
  proto.clean = nothing;
}
