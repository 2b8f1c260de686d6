// The Node host as a line filter, for checks/wasm/check.py: each stdin line is
// `{"route": "/body" | "/compose" | "/locale", "request": TEXT, "now"?: RFC 3339}`,
// each stdout line `{"status": N, "body": TEXT}` from notification-text.mjs.
// The first argument is the folder `make wasm` filled (.build/wasm).
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const folder = resolve(process.argv[2] ?? ".build/wasm");
const host = await import(pathToFileURL(`${folder}/notification-text.mjs`).href);
await host.init();
const answer = { "/body": (c) => host.answerBody(c.request), "/locale": (c) => host.answerLocale(c.request),
  "/compose": (c) => host.answerCompose(c.request, { now: c.now ?? "2026-11-29T12:00:00Z" }) };
const output = [];
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const call = JSON.parse(line);
  output.push(JSON.stringify(answer[call.route](call)));
  if (output.length >= 256) process.stdout.write(output.splice(0).join("\n") + "\n");
}
process.stdout.write(output.length ? output.join("\n") + "\n" : "");
console.error(JSON.stringify({ memoryBytes: host.memoryBytes() }));
