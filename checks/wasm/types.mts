// The package's types as its users meet them (checks/wasm/doc_blocks.py
// compiles this with tsc --strict where npm installed the package): every
// export used as docs/wasm.md says, and misuse that must not compile.
import { ABI_VERSION, answerBody, answerCompose, answerLocale, configure, init, initRelay, memoryBytes, relay } from "notification-text";
import type { Answer, ModuleSource, Request } from "notification-text";

await init();
await init("/path/to/notification-text.wasm");
await init(new URL("https://example.com/notification-text.wasm"));
await init(new Uint8Array(8));
await initRelay();
const source: ModuleSource = "/path/to/notification-text-relay.wasm";
await initRelay(source);

const text: Answer<string> = answerBody({ text: "**Hi**" });
const bytes: Answer<Uint8Array> = answerBody(new Uint8Array([0x7b, 0x7d]), { bytes: true });
const composed: string = answerCompose("{}", { now: new Date() }).body;
const composedBytes: Uint8Array = answerCompose({}, { now: Date.now(), bytes: true }).body;
const relayed: string = relay({ do: "wake" }).body;
const relayedBytes: Uint8Array = relay(new Uint8Array(0), { bytes: true }).body;
const located: number = answerLocale({ locale: "ar" }).status;
const settings: string = configure({ appName: "Buzz" }).body;
const request: Request = new Uint8Array(0);
const version: 2 = ABI_VERSION;
const memory: number = memoryBytes();
const relayMemory: number = memoryBytes({ relay: true });

// @ts-expect-error: a string body is not bytes
const wrong: Uint8Array = answerBody("{}").body;
// @ts-expect-error: now is a Date, milliseconds or RFC 3339, not a boolean
answerCompose("{}", { now: true });
// @ts-expect-error: a relay request carries its own now
relay("{}", { now: new Date() });
// @ts-expect-error: a status is a number
const status: string = answerBody("{}").status;

console.log(text, bytes, composed, composedBytes, relayed, relayedBytes, located, settings, request, version, memory,
  relayMemory, wrong, status);
