"""report.py reads `go test -json` of aztables' live tests (run by
scripts/aztables-suite.sh) and prints pass or fail per test, each failure
with its first error line and, where the reason is not the emulator's,
that reason (docs/conformance.md, "The Go SDK's own suite", gives the
sources). It exits 1 when a test fails for a reason not listed here."""
import json
import sys

# Failures whose reason is not the emulator's: Azure answers the same.
# Each is recognised by what the failure says (the answer's error code),
# so another failure of the same test is reported as the emulator's.
NOT_THE_EMULATORS = {
    "TestAzurite": ("ERROR CODE: InvalidInput", "the test stores \"some-guid-value\" as an Edm.Guid, which is no "
                    "Guid: Azure refuses it with 400 (conformance R18); the test is written for Azurite, which "
                    "stores it"),
    "TestSASServiceClient": ("ERROR CODE: AuthorizationProtocolMismatch", "over plain HTTP: the SDK signs its "
                             "SAS for HTTPS only (spr=https), and Azure answers such a request over HTTP with 403 "
                             "AuthorizationProtocolMismatch, as the emulator does"),
}


def main(path):
    tests, output = {}, {}
    with open(path) as f:
        for line in f:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            name = ev.get("Test")
            if not name:
                continue
            if ev["Action"] == "output":
                output.setdefault(name, []).append(ev.get("Output", ""))
            elif ev["Action"] in ("pass", "fail", "skip"):
                tests[name] = ev["Action"]
    # A parent test passes or fails with its subtests: count the leaves.
    leaves = [n for n in tests if not any(o.startswith(n + "/") for o in tests)]
    passed = [n for n in leaves if tests[n] == "pass"]
    failed = sorted(n for n in leaves if tests[n] == "fail")
    theirs = 0
    for n in sorted(leaves):
        print(f"{tests[n]:4}  {n}")
        if tests[n] != "fail":
            continue
        said, reason = NOT_THE_EMULATORS.get(n, (None, None))
        if said is not None and any(said in l for l in output.get(n, [])):
            theirs += 1
            print(f"      not the emulator's: {reason}")
        else:
            print(f"      {first_error(output.get(n, []))}")
    print(f"passed {len(passed)} of {len(leaves)}; failed {len(failed)}, "
          f"{theirs} of them for a reason that is not the emulator's")
    return 1 if len(failed) > theirs else 0


def first_error(lines):
    for i, l in enumerate(lines):
        if "Error:" in l or "RESPONSE" in l or "ERROR CODE" in l:
            return " ".join(x.strip() for x in lines[i:i + 3])[:300]
    return (lines[-1].strip() if lines else "no output")[:300]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
