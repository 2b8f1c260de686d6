// The types of notification-text.mjs (docs/wasm.md).

/** The version of the module's interface the host speaks (`nt_abi_version`). */
export declare const ABI_VERSION: 2;

/**
 * A request: a JSON text, its UTF-8 bytes (written to the module as they
 * are, so invalid UTF-8 is answered as the service answers it), or a value
 * to write as JSON.
 */
export type Request = string | Uint8Array | object;

/** The service's answer to the same request: its HTTP status and body (a 200's JSON, or the problem object). */
export interface Answer<Body extends string | Uint8Array = string> {
  status: number;
  body: Body;
}

/** `bytes: true`: the answer's body as its UTF-8 bytes, a copy. */
export interface AnswerOptions {
  bytes?: boolean;
}

export interface ComposeOptions extends AnswerOptions {
  /** The clock a request without `now` is composed at: a Date, milliseconds since 1970, or RFC 3339. Default: now. */
  now?: Date | number | string;
}

/** Where a module comes from: a URL or its text, a Response, its bytes or the compiled module. */
export type ModuleSource = URL | string | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

/**
 * Loads and instantiates the browser's module once (later calls return its first load).
 * Default: notification-text.wasm beside the .mjs. In Node, a string that is
 * not an http(s), data or blob URL is a file's path.
 */
export declare function init(source?: ModuleSource): Promise<void>;

/** Loads and instantiates the relay's module once, as `init`. Default: notification-text-relay.wasm beside the .mjs. */
export declare function initRelay(source?: ModuleSource): Promise<void>;

/** A `POST /body` request: `{"body","units","truncated","inputCut"}` or its problem. */
export declare function answerBody(request: Request, options: AnswerOptions & { bytes: true }): Answer<Uint8Array>;
export declare function answerBody(request: Request, options?: AnswerOptions & { bytes?: false }): Answer<string>;

/** A `POST /compose` request: the notification, or its problem. */
export declare function answerCompose(request: Request, options: ComposeOptions & { bytes: true }): Answer<Uint8Array>;
export declare function answerCompose(request: Request, options?: ComposeOptions & { bytes?: false }): Answer<string>;

/** A `POST /relay` request (after `initRelay`): the relay's next record and what to send, or its problem. */
export declare function relay(request: Request, options: AnswerOptions & { bytes: true }): Answer<Uint8Array>;
export declare function relay(request: Request, options?: AnswerOptions & { bytes?: false }): Answer<string>;

/** How a `locale` chooses its catalog: `{locale, defaultLocale, count, format, arguments}`, each optional. */
export declare function answerLocale(question: Request, options: AnswerOptions & { bytes: true }): Answer<Uint8Array>;
export declare function answerLocale(question: Request, options?: AnswerOptions & { bytes?: false }): Answer<string>;

/**
 * `serve --app-name` and `--default-locale` for the calls that follow: `{appName, defaultLocale}`, each optional.
 * Set in every module loaded and in one loaded later; the answer is the browser's module's when it is loaded,
 * else the relay's.
 */
export declare function configure(settings: Request, options: AnswerOptions & { bytes: true }): Answer<Uint8Array>;
export declare function configure(settings: Request, options?: AnswerOptions & { bytes?: false }): Answer<string>;

/** The browser's module's memory in bytes (it grows, and never shrinks); `{ relay: true }`: the relay's module's. */
export declare function memoryBytes(options?: { relay?: boolean }): number;
