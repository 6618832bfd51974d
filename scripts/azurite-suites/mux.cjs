// mux.cjs listens on 127.0.0.1:LISTEN and forwards each connection to the
// Table service on 127.0.0.1:BACKEND (plain HTTP); a connection that
// opens with a TLS handshake goes first through a TLS terminator on
// 127.0.0.1:LISTEN+1 with CERT and KEY (the test certificate of Azurite's
// repository): Azurite's HTTPS suites expect the service on the same port
// as its HTTP ones.
// Usage: node mux.cjs LISTEN BACKEND CERT KEY
const net = require("net");
const tls = require("tls");
const fs = require("fs");

const [listen, backend, cert, key] = process.argv.slice(2).map((v, i) => (i < 2 ? Number(v) : v));

function join(a, b) {
  a.pipe(b).pipe(a);
  for (const [x, y] of [[a, b], [b, a]]) {
    x.on("error", () => y.destroy());
    x.on("close", () => y.destroy());
  }
}

tls
  .createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) }, (s) => join(s, net.connect(backend, "127.0.0.1")))
  .on("tlsClientError", () => {})
  .listen(listen + 1, "127.0.0.1");

net
  .createServer((s) => {
    s.on("error", () => {});
    s.once("data", (first) => {
      s.pause();
      const to = net.connect(first[0] === 0x16 ? listen + 1 : backend, "127.0.0.1"); // 0x16: a TLS ClientHello
      to.write(first);
      join(s, to);
      s.resume();
    });
  })
  .listen(listen, "127.0.0.1", () => console.log(`mux: 127.0.0.1:${listen} -> 127.0.0.1:${backend}, TLS through ${listen + 1}`));
