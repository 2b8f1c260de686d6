// The Node host as a line filter, for checks/wasm/check.py: each stdin line is
// `{"route": "/body" | "/compose" | "/locale" | "/relay" | "/configure", "request": TEXT, "now"?: RFC 3339}`,
// or with `"requestBase64"` in place of `"request"`: the request's bytes,
// given to the host as a Uint8Array and answered as bytes. Each stdout line
// is `{"status": N, "body": TEXT}`, or `{"status": N, "bodyBase64": BYTES}`.
// The first argument is the folder `make wasm` filled (.build/wasm); the
// modules are loaded by their files' paths, as a Node program would: /relay
// goes to notification-text-relay.wasm, the rest to notification-text.wasm.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const folder = resolve(process.argv[2] ?? ".build/wasm");
const host = await import(pathToFileURL(`${folder}/notification-text.mjs`).href);
await host.init(`${folder}/notification-text.wasm`);
await host.initRelay(`${folder}/notification-text-relay.wasm`);
const answer = { "/body": host.answerBody, "/locale": host.answerLocale, "/relay": host.relay, "/configure": host.configure,
  "/compose": (request, options) => host.answerCompose(request, { now: "2026-11-29T12:00:00Z", ...options }) };
const output = [];
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const call = JSON.parse(line);
  const options = call.now ? { now: call.now } : {};
  if (call.requestBase64 === undefined) {
    output.push(JSON.stringify(answer[call.route](call.request, options)));
  } else {
    const bytes = new Uint8Array(Buffer.from(call.requestBase64, "base64"));
    const { status, body } = answer[call.route](bytes, { ...options, bytes: true });
    if (!(body instanceof Uint8Array)) throw new Error("bytes: true answered no Uint8Array");
    output.push(JSON.stringify({ status, bodyBase64: Buffer.from(body).toString("base64") }));
  }
  if (output.length >= 256) process.stdout.write(output.splice(0).join("\n") + "\n");
}
process.stdout.write(output.length ? output.join("\n") + "\n" : "");
console.error(JSON.stringify({ memoryBytes: host.memoryBytes(), relayMemoryBytes: host.memoryBytes({ relay: true }) }));
