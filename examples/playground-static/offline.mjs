// The playground page (GET / of the service) without a server: this script
// answers the page's requests with the WebAssembly module, in the page.
// `make playground-static` puts it beside copies of the page's own files
// (Sources/NotificationService/Resources/) and the module in
// .build/playground-static/, a folder any static web server can serve.
// It runs before playground.js (a module script placed before a deferred
// one runs first), and changes nothing in it: the page's fetch calls for
// POST /body, POST /compose and GET /playground.json get the answers the
// service would give, with the same statuses and media types.
import { init, answerBody, answerCompose } from "./notification-text.mjs";

const ready = init();
const served = window.fetch.bind(window);

window.fetch = async (resource, options = {}) => {
  const path = new URL(String(resource), location.href).pathname;
  const method = (options.method || "GET").toUpperCase();
  if (method === "POST" && (path.endsWith("/body") || path.endsWith("/compose"))) {
    await ready;
    const text = typeof options.body === "string" ? options.body : "";
    const { status, body } = path.endsWith("/body") ? answerBody(text) : answerCompose(text, { now: new Date() });
    const type = status === 200 ? "application/json" : "application/problem+json";
    return new Response(body, { status, headers: { "Content-Type": type } });
  }
  if (path.endsWith("/playground.json")) return served(new URL("playground.json", import.meta.url));
  return served(resource, options);
};
