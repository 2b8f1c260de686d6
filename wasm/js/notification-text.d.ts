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

/**
 * Loads and instantiates the module once (later calls return at once).
 * Default: notification-text.wasm beside the .mjs. In Node, a string that is
 * not an http(s), data or blob URL is a file's path.
 */
export declare function init(
  source?: URL | string | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module,
): Promise<void>;

/** A `POST /body` request: `{"body","units","truncated","inputCut"}` or its problem. */
export declare function answerBody(request: Request, options: AnswerOptions & { bytes: true }): Answer<Uint8Array>;
export declare function answerBody(request: Request, options?: AnswerOptions & { bytes?: false }): Answer<string>;

/** A `POST /compose` request: the notification, or its problem. */
export declare function answerCompose(request: Request, options: ComposeOptions & { bytes: true }): Answer<Uint8Array>;
export declare function answerCompose(request: Request, options?: ComposeOptions & { bytes?: false }): Answer<string>;


/** How a `locale` chooses its catalog: `{locale, defaultLocale, count, format, arguments}`, each optional. */
export declare function answerLocale(question: Request, options: AnswerOptions & { bytes: true }): Answer<Uint8Array>;
export declare function answerLocale(question: Request, options?: AnswerOptions & { bytes?: false }): Answer<string>;

/** `serve --app-name` and `--default-locale` for the calls that follow: `{appName, defaultLocale}`, each optional. */
export declare function configure(settings: Request, options: AnswerOptions & { bytes: true }): Answer<Uint8Array>;
export declare function configure(settings: Request, options?: AnswerOptions & { bytes?: false }): Answer<string>;

/** The module's memory in bytes (it grows, and never shrinks). */
export declare function memoryBytes(): number;
