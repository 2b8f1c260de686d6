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
//   import { initRelay, relay } from "notification-text";
//   await initRelay();                     // notification-text-relay.wasm beside this file
//   relay({ do: "wake", record, now });    // {status: 200, body: '{"record":…,"sends":[…],…}'}
//
// A request is a JSON text, its UTF-8 bytes (a Uint8Array, written to the
// module as they are: invalid UTF-8 is answered as the service answers it),
// or a value to write as JSON. `{ bytes: true }` gives the answer's bytes
// (a Uint8Array) where the default gives a string. A bad request is
// `{status: 400, body: <the problem object>}`, as HTTP answers it. The
// calls are synchronous once `init` has resolved (a service worker calls
// `init` in its `install` or at the top of its push handler: a worker
// module cannot await at its top level).
//
// Two modules from the same engine: notification-text.wasm (`init`: body,
// compose, locale) for browsers and service workers, and
// notification-text-relay.wasm (`initRelay`: the relay's core, which
// composes itself) for relays; each is loaded once, when asked for, and
// `configure` sets both.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The version of the module's interface this file speaks (`nt_abi_version`). */
export const ABI_VERSION = 2;
// Per module: its exports, `nt_answer_slot` (the last answer's pointer and
// length), its kept request buffers, and the load under way.
const modules = {
  main: { file: "notification-text.wasm", exports: null, slot: 0, buffers: null, loading: null },
  relay: { file: "notification-text-relay.wasm", exports: null, slot: 0, buffers: null, loading: null },
};
let settings = null; // the last accepted `configure`, given to a module loaded after it

/**
 * Loads and instantiates the browser's module once. `source`: a URL or a URL's text
 * (default: notification-text.wasm beside this file), in Node also a file's
 * path, a Response, the module's bytes, or a compiled `WebAssembly.Module`.
 * The module imports nothing.
 */
export function init(source = new URL("./notification-text.wasm", import.meta.url)) {
  return load(modules.main, source);
}

/** Loads and instantiates the relay's module once, as `init` (default: notification-text-relay.wasm beside this file). */
export function initRelay(source = new URL("./notification-text-relay.wasm", import.meta.url)) {
  return load(modules.relay, source);
}

function load(target, source) {
  target.loading ??= (async () => {
    const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(await moduleBytes(source));
    const instance = await WebAssembly.instantiate(module, {});
    const version = instance.exports.nt_abi_version();
    if (version !== ABI_VERSION) throw new Error(`${target.file} speaks ABI ${version}, not ${ABI_VERSION}`);
    target.exports = instance.exports;
    target.slot = target.exports.nt_answer_slot();
    target.buffers = [{ pointer: 0, capacity: 0 }, { pointer: 0, capacity: 0 }];
    if (settings !== null) call(target, "nt_configure", false, settings);
  })().catch((error) => {
    target.loading = null; // a failed load may be tried again
    throw error;
  });
  return target.loading;
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
  return call(modules.main, "nt_body", bytes, request);
}

/**
 * A `POST /compose` request: `{status, body}`. `now` (a Date, milliseconds
 * since 1970, or an RFC 3339 string; default the current time) is the clock
 * a request without `now` is composed at.
 */
export function answerCompose(request, { now = new Date(), bytes = false } = {}) {
  const text = typeof now === "string" ? now : new Date(now).toISOString();
  return call(modules.main, "nt_compose", bytes, request, text);
}

/**
 * A `POST /relay` request (`initRelay` first): `{status, body}`. The relay's
 * core (docs/relay.md, "The core"): the stored record and what happened in,
 * the next record and what to send out; the request carries its own `now`.
 */
export function relay(request, { bytes = false } = {}) {
  return call(modules.relay, "nt_relay", bytes, request);
}

/**
 * How a `locale` chooses its catalog: `{locale, defaultLocale, count, format,
 * arguments}`, each optional; the answer is the `locale` command's JSON.
 */
export function answerLocale(question, { bytes = false } = {}) {
  return call(modules.main, "nt_locale", bytes, question);
}

/**
 * `serve --app-name` and `--default-locale` for the calls that follow:
 * `{appName, defaultLocale}`. Set in every module loaded, and in one loaded
 * later; the answer is the browser's module's when it is loaded, else the relay's.
 */
export function configure(given, { bytes = false } = {}) {
  const targets = [modules.main, modules.relay].filter((target) => target.exports);
  if (targets.length === 0) loaded(modules.main);
  const text = given instanceof Uint8Array ? given.slice() : typeof given === "string" ? given : JSON.stringify(given);
  const answers = targets.map((target) => call(target, "nt_configure", bytes, text));
  if (answers[0].status === 200) settings = text;
  return answers[0];
}

/** The browser's module's memory in bytes (it grows, and never shrinks); `{ relay: true }`: the relay's. */
export function memoryBytes({ relay = false } = {}) {
  return loaded(relay ? modules.relay : modules.main).memory.buffer.byteLength;
}

function loaded(target) {
  if (!target.exports) {
    const first = target === modules.main ? "init()" : "initRelay()";
    throw new Error(`notification-text: call and await ${first} first`);
  }
  return target.exports;
}

// Each argument's UTF-8 goes into memory the module allocated (`nt_alloc`),
// kept from call to call: the calls that follow reuse it, so a typical
// answer is one call into the module and no allocation on either side. A
// buffer larger than 64 KiB is given back (`nt_free`) after its call.
const KEPT_BYTES = 1 << 16;

function call(target, name, asBytes, ...values) {
  const x = loaded(target);
  const { buffers, slot } = target;
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
        release(x, buffer);
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
    for (const buffer of buffers) if (buffer.capacity > KEPT_BYTES) release(x, buffer);
  }
}

function release(x, buffer) {
  if (buffer.pointer !== 0) x.nt_free(buffer.pointer);
  buffer.pointer = 0;
  buffer.capacity = 0;
}
