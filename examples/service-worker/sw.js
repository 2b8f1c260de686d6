// A service worker that makes its notification's text on the device: a Web
// Push data message carries what the service would be sent, and the
// notification-text module (notification-text.mjs and .wasm beside this
// file, from `make wasm`) answers it as the service would, with no server.
// docs/wasm.md says how this is tested (checks/wasm/service_worker_test.py).
//
// The message's data is JSON, one of:
//   {"compose": <a POST /compose request>}: the recipient's pending notifications;
//   {"title": "Ana", "body": <a POST /body request>}: one message's Markdown.
import { init, answerBody, answerCompose } from "./notification-text.mjs";

// A module service worker cannot await at its top level: start loading now,
// wait in the handler.
const ready = init();

self.addEventListener("install", (event) => event.waitUntil(ready.then(() => self.skipWaiting())));
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  event.waitUntil(ready.then(() => show(event.data ? event.data.json() : {})));
});

async function show(message) {
  if (message.compose) {
    // The clock is the device's: the module has none.
    const { status, body } = answerCompose(message.compose, { now: new Date() });
    const answer = JSON.parse(body);
    if (status !== 200 || !answer.notification) return; // a problem, or nothing to show
    const { title, body: text, threadIdentifier, url } = answer.notification;
    // One notification per thread: a newer one replaces it (the tag). The
    // texts are in the answer's locale and direction ("rtl" for Arabic):
    // the platform lays out and voices them by `lang` and `dir`.
    await self.registration.showNotification(title, {
      body: text, lang: answer.locale, dir: answer.direction,
      tag: threadIdentifier ?? "notification-text", data: { url, shown: answer.shown },
    });
  } else if (message.body) {
    // A body's answer has no locale: its direction is the text's own ("auto").
    const { status, body } = answerBody(message.body);
    if (status !== 200) return;
    await self.registration.showNotification(message.title ?? "", { body: JSON.parse(body).body, dir: "auto", tag: "message" });
  }
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url;
  if (url) event.waitUntil(self.clients.openWindow(url));
});
