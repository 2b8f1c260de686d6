// The module in Node (notification-text.mjs over notification-text.wasm):
// median time per answer of the bench payloads, as notification-bench
// measures the native engine in process, and the module's memory after
// 1 MB requests. `make bench` runs it beside notification-bench
// (bench/wasm.sh); the figures are bench/README.md's "The WebAssembly module".
// node bench/wasm_bench.mjs [.build/wasm] [bench/payloads]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [folder = ".build/wasm", payloads = "bench/payloads"] = process.argv.slice(2);
const host = await import(pathToFileURL(resolve(folder, "notification-text.mjs")).href);
await host.init();

function median(label, run, batch = 1000, rounds = 31) {
  for (let i = 0; i < batch; i++) run(); // warm-up: the JIT tiers up
  const perOperation = [];
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) run();
    perOperation.push(Number(process.hrtime.bigint() - started) / batch);
  }
  perOperation.sort((a, b) => a - b);
  const ns = perOperation[rounds >> 1];
  console.log(`${label.padEnd(58)}${ns >= 10000 ? `${Math.round(ns / 1000)} µs` : `${Math.round(ns)} ns`}`);
  return ns;
}

const body = readFileSync(`${payloads}/body-typical.json`, "utf8");
const compose = readFileSync(`${payloads}/compose-20.json`, "utf8");
const now = "2026-11-29T18:00:00Z";
for (const [request, answer] of [[body, host.answerBody(body)], [compose, host.answerCompose(compose, { now })]]) {
  if (answer.status !== 200) throw new Error(`the bench payload was refused: ${answer.body}`);
}
console.log("case".padEnd(58) + "median per operation");
median("wasm (Node) POST /body, typical message", () => host.answerBody(body));
median("wasm (Node) POST /compose, 20 pending", () => host.answerCompose(compose, { now }), 200);

// Memory: a fresh module's, then after a 1 MB /body request (its text is cut
// at 4096 units, but all of it is read) and a 1 MB /compose request.
const fresh = host.memoryBytes();
const megabyteText = "Hello **world** 👍 ".repeat(1 << 16).slice(0, 1 << 20);
const bodyAnswer = host.answerBody({ text: megabyteText });
const afterBody = host.memoryBytes();
const note = JSON.parse(compose).notifications[0];
// 1,000 notifications (a request's most), each with a text of about 1 KB.
const notifications = [];
for (let i = 0; i < 1000; i++) notifications.push({ ...note, id: `n${i}`, text: `${i} `.padEnd(1000, "Ship it **now** 🎉 ") });
const composeRequest = JSON.stringify({ now, notifications });
const composeAnswer = host.answerCompose(composeRequest);
const afterCompose = host.memoryBytes();
const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;
console.log(`module memory: ${kib(fresh)} fresh; ${kib(afterBody)} after a ${kib(JSON.stringify({ text: megabyteText }).length)}` +
  ` /body request (status ${bodyAnswer.status}); ${kib(afterCompose)} after a ${kib(composeRequest.length)} /compose request` +
  ` of ${notifications.length} notifications (status ${composeAnswer.status})`);
