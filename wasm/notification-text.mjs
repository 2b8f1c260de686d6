// notification-text.mjs: the notification-text rules in a browser, a
// service worker or Node, through notification-text.wasm (docs/wasm.md).
// Every answer is the bytes the service's HTTP route gives, with its status:
//
//   import { init, answerBody, answerCompose } from "./notification-text.mjs";
//   await init();                          // notification-text.wasm beside this file
//   answerBody({ text: "**Hi** there" });  // {status: 200, body: '{"body":"Hi there",…}'}
//   answerCompose(request, { now: new Date() });
//
// A bad request is `{status: 400, body: <the problem object>}`, as HTTP
// answers it. The calls are synchronous once `init` has resolved (a service
// worker calls `init` in its `install` or at the top of its push handler: a
// worker module cannot await at its top level).

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The version of the module's interface this file speaks (`nt_abi_version`). */
export const ABI_VERSION = 1;
let exports = null;

/**
 * Loads and instantiates the module once. `source`: a URL (default:
 * notification-text.wasm beside this file), a Response, bytes, or a
 * compiled `WebAssembly.Module`. The module imports nothing.
 */
export async function init(source = new URL("./notification-text.wasm", import.meta.url)) {
  if (exports) return;
  let module;
  if (source instanceof WebAssembly.Module) {
    module = source;
  } else if (source instanceof URL && source.protocol === "file:") {
    const { readFile } = await import("node:fs/promises"); // Node: fetch() has no file: URLs
    module = await WebAssembly.compile(await readFile(source));
  } else {
    const response = source instanceof URL || typeof source === "string" ? await fetch(source) : source;
    const bytes = response instanceof Response ? await response.arrayBuffer() : response;
    module = await WebAssembly.compile(bytes);
  }
  const instance = await WebAssembly.instantiate(module, {});
  const version = instance.exports.nt_abi_version();
  if (version !== ABI_VERSION) throw new Error(`notification-text.wasm speaks ABI ${version}, not ${ABI_VERSION}`);
  exports = instance.exports;
}

/** A `POST /body` request (a JSON string or an object): `{status, body}`. */
export function answerBody(request) {
  return call("nt_body", request);
}

/**
 * A `POST /compose` request (a JSON string or an object): `{status, body}`.
 * `now` (a Date, milliseconds since 1970, or an RFC 3339 string; default the
 * current time) is the clock a request without `now` is composed at.
 */
export function answerCompose(request, { now = new Date() } = {}) {
  const text = typeof now === "string" ? now : new Date(now).toISOString();
  return call("nt_compose", request, text);
}

/**
 * A `POST /relay` request (a JSON string or an object): `{status, body}`.
 * The relay's core (docs/relay.md): an `event`, `loop`, `gave-up`, `answer`
 * or `wake` with the stored record in, the next record and the sends out.
 */
export function answerRelay(request) {
  return call("nt_relay", request);
}

/**
 * How a `locale` chooses its catalog: `{locale, defaultLocale, count, format,
 * arguments}`, each optional; the answer is the `locale` command's JSON.
 */
export function answerLocale(question) {
  return call("nt_locale", question);
}

/** `serve --app-name` and `--default-locale` for the calls that follow: `{appName, defaultLocale}`. */
export function configure(settings) {
  return call("nt_configure", settings);
}

/** The module's memory in bytes (it grows, and never shrinks). */
export function memoryBytes() {
  return loaded().memory.buffer.byteLength;
}

function loaded() {
  if (!exports) throw new Error("notification-text: call and await init() first");
  return exports;
}

// Each argument's UTF-8 goes into memory the module allocated (`nt_alloc`),
// kept from call to call: the calls that follow reuse it, so a typical
// answer costs no allocation on either side. A buffer larger than 64 KiB is
// given back (`nt_free`) after its call.
const KEPT_BYTES = 1 << 16;
const buffers = [{ pointer: 0, capacity: 0 }, { pointer: 0, capacity: 0 }];

function call(name, ...values) {
  const x = loaded();
  const args = [];
  try {
    values.forEach((value, index) => {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      const buffer = buffers[index];
      // UTF-8 takes at most 3 bytes per UTF-16 unit; a large text is measured
      // first, so the module's memory grows by its size only.
      const bytes = text.length * 3 > KEPT_BYTES ? encoder.encode(text) : null;
      const needed = bytes ? bytes.length : Math.max(text.length * 3, 256);
      if (buffer.capacity < needed) {
        release(buffer);
        buffer.pointer = x.nt_alloc(needed);
        if (buffer.pointer === 0) throw new RangeError("notification-text: the module has no memory left");
        buffer.capacity = needed;
      }
      const memory = new Uint8Array(x.memory.buffer, buffer.pointer, buffer.capacity);
      if (bytes) memory.set(bytes);
      args.push(buffer.pointer, bytes ? bytes.length : encoder.encodeInto(text, memory).written);
    });
    const status = x[name](...args);
    if (status < 0) throw new TypeError(`notification-text: ${name} refused its arguments`);
    const body = decoder.decode(new Uint8Array(x.memory.buffer, x.nt_answer_pointer(), x.nt_answer_length()));
    return { status, body };
  } finally {
    for (const buffer of buffers) if (buffer.capacity > KEPT_BYTES) release(buffer);
  }
}

function release(buffer) {
  if (buffer.pointer !== 0) exports.nt_free(buffer.pointer);
  buffer.pointer = 0;
  buffer.capacity = 0;
}
