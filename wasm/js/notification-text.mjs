// notification-text.mjs: the notification-text rules in a browser, a
// service worker or Node, through notification-text.wasm (docs/wasm.md;
// the package `wasm/js`, types in notification-text.d.ts). Every answer is
// the bytes the service's HTTP route gives, with its status:
//
//   import { init, answerBody, answerCompose } from "notification-text";
//   await init();                          // notification-text.wasm beside this file
//   answerBody({ text: "**Hi** there" });  // {status: 200, body: '{"body":"Hi there",…}'}
//   answerCompose(request, { now: new Date() });
//
// A request is a JSON text, its UTF-8 bytes (a Uint8Array, written to the
// module as they are: invalid UTF-8 is answered as the service answers it),
// or a value to write as JSON. `{ bytes: true }` gives the answer's bytes
// (a Uint8Array) where the default gives a string. A bad request is
// `{status: 400, body: <the problem object>}`, as HTTP answers it. The
// calls are synchronous once `init` has resolved (a service worker calls
// `init` in its `install` or at the top of its push handler: a worker
// module cannot await at its top level).

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The version of the module's interface this file speaks (`nt_abi_version`). */
export const ABI_VERSION = 2;
let exports = null;
let slot = 0; // nt_answer_slot: the last answer's pointer and length

/**
 * Loads and instantiates the module once. `source`: a URL or a URL's text
 * (default: notification-text.wasm beside this file), in Node also a file's
 * path, a Response, the module's bytes, or a compiled `WebAssembly.Module`.
 * The module imports nothing.
 */
export async function init(source = new URL("./notification-text.wasm", import.meta.url)) {
  if (exports) return;
  const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(await moduleBytes(source));
  const instance = await WebAssembly.instantiate(module, {});
  const version = instance.exports.nt_abi_version();
  if (version !== ABI_VERSION) throw new Error(`notification-text.wasm speaks ABI ${version}, not ${ABI_VERSION}`);
  exports = instance.exports;
  slot = exports.nt_answer_slot();
}

async function moduleBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  if (typeof Response !== "undefined" && source instanceof Response) return source.arrayBuffer();
  const node = typeof process !== "undefined" && process.versions?.node;
  if (node && (typeof source === "string" ? !/^(https?|data|blob):/i.test(source) : source.protocol === "file:")) {
    // Node: a file's path or file: URL (fetch() has no file: URLs). A
    // Windows path ("C:\…") would parse as a URL of scheme "c".
    const { readFile } = await import("node:fs/promises");
    return readFile(typeof source === "string" && source.startsWith("file:") ? new URL(source) : source);
  }
  const response = await fetch(source);
  if (!response.ok) throw new Error(`notification-text: ${source} answered ${response.status}`);
  return response.arrayBuffer();
}

/** A `POST /body` request: `{status, body}`. */
export function answerBody(request, { bytes = false } = {}) {
  return call("nt_body", bytes, request);
}

/**
 * A `POST /compose` request: `{status, body}`. `now` (a Date, milliseconds
 * since 1970, or an RFC 3339 string; default the current time) is the clock
 * a request without `now` is composed at.
 */
export function answerCompose(request, { now = new Date(), bytes = false } = {}) {
  const text = typeof now === "string" ? now : new Date(now).toISOString();
  return call("nt_compose", bytes, request, text);
}

/**
 * How a `locale` chooses its catalog: `{locale, defaultLocale, count, format,
 * arguments}`, each optional; the answer is the `locale` command's JSON.
 */
export function answerLocale(question, { bytes = false } = {}) {
  return call("nt_locale", bytes, question);
}

/** `serve --app-name` and `--default-locale` for the calls that follow: `{appName, defaultLocale}`. */
export function configure(settings, { bytes = false } = {}) {
  return call("nt_configure", bytes, settings);
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
// answer is one call into the module and no allocation on either side. A
// buffer larger than 64 KiB is given back (`nt_free`) after its call.
const KEPT_BYTES = 1 << 16;
const buffers = [{ pointer: 0, capacity: 0 }, { pointer: 0, capacity: 0 }];

function call(name, asBytes, ...values) {
  const x = loaded();
  const args = [];
  try {
    values.forEach((value, index) => {
      const given = value instanceof Uint8Array;
      const text = given ? "" : typeof value === "string" ? value : JSON.stringify(value);
      const buffer = buffers[index];
      // UTF-8 takes at most 3 bytes per UTF-16 unit; a large text is encoded
      // first, so the module's memory grows by its size only.
      const bytes = given ? value : text.length * 3 > KEPT_BYTES ? encoder.encode(text) : null;
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
    const place = new DataView(x.memory.buffer, slot, 8); // little-endian, as all of WebAssembly's memory
    const answer = new Uint8Array(x.memory.buffer, place.getUint32(0, true), place.getUint32(4, true));
    return { status, body: asBytes ? answer.slice() : decoder.decode(answer) };
  } finally {
    for (const buffer of buffers) if (buffer.capacity > KEPT_BYTES) release(buffer);
  }
}

function release(buffer) {
  if (buffer.pointer !== 0) exports.nt_free(buffer.pointer);
  buffer.pointer = 0;
  buffer.capacity = 0;
}
