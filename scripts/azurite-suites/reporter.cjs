// reporter.cjs is a mocha reporter that survives any failure: it writes,
// for one suite file, a JSON line {"passed": N, "total": M, "pending": P,
// "failed": [{"title", "error"}]} to the file named by
// reporterOptions.output, where total counts the tests that ran (the
// built-in json reporter dies on the circular errors HTTP clients throw,
// and then reports nothing).
const fs = require("fs");

class CountReporter {
  constructor(runner, options) {
    const out = options.reporterOptions?.output;
    let passed = 0;
    let pending = 0;
    const failed = [];
    runner.on("pass", () => passed++);
    runner.on("pending", () => pending++);
    runner.on("fail", (test, err) => {
      const first = String(err?.message ?? err).split("\n").find((l) => l.trim() !== "") ?? "";
      failed.push({ title: test.fullTitle(), error: first.slice(0, 300) });
    });
    runner.once("end", () => {
      const line = JSON.stringify({ passed, total: passed + failed.length, pending, failed }) + "\n";
      if (out) fs.writeFileSync(out, line);
      else process.stdout.write(line);
    });
  }
}

module.exports = CountReporter;
