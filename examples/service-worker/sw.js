// A service worker that makes its notification's text on the device: a Web
// Push data message carries what the service would be sent, and the
// notification-text module (notification-text.mjs and .wasm beside this
// file, from `make wasm`) answers it as the service would, with no server.
// docs/wasm.md says how this is tested (checks/wasm/service_worker_test.py).
//
// The message's data is JSON, one of:
//   a relay's Web Push payload (push.webpush.payload of a compose answer):
//   the classic one (`tag`, `stamp` at the top level, push.md P12) or the
//   declarative Web Push message (`web_push` 8030, push.md P23), applied by
//   the stamp rule (device-screen.mjs) with the stamp from its `data`;
//   {"compose": <a POST /compose request>}: the recipient's pending notifications;
//   {"title": "Ana", "body": <a POST /body request>}: one message's Markdown.
import { init, answerBody, answerCompose } from "./notification-text.mjs";
import { DeviceScreen } from "./device-screen.mjs";

// A module service worker cannot await at its top level: start loading now,
// wait in the handler.
const ready = init();

self.addEventListener("install", (event) => event.waitUntil(ready.then(() => self.skipWaiting())));
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// One push at a time: each reads and writes the stored stamps.
let queue = Promise.resolve();

self.addEventListener("push", (event) => {
  const message = event.data ? event.data.json() : {};
  queue = queue.then(() => ready).then(() => show(message)).catch(() => {});
  event.waitUntil(queue);
});

async function show(message) {
  const relayed = relayPayload(message);
  if (relayed.stamp !== undefined) {
    await applyRelayPayload(relayed);
  } else if (message.compose) {
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

// A declarative Web Push message (push.md P23) says what the classic payload
// says under other names: its notification's members, the stamp and kind in
// `data`, the badge beside it (WebKit reads it inside). Read into the classic
// names; any other message is returned as it is. Where the browser shows a
// declarative message itself (Safari without `mutable`), this worker does not run.
function relayPayload(message) {
  if (message.web_push !== 8030 || !message.notification) return message;
  const { title, body, navigate, lang, dir, tag, silent, data, app_badge: inner } = message.notification;
  return {
    title, body, tag, url: navigate, lang, dir, alert: !silent, kind: data?.kind, stamp: data?.stamp,
    appBadge: message.app_badge ?? inner, sender: data?.sender, conversation: data?.conversation,
  };
}

// A relay's payload, in whatever order the push service delivers it: the
// stamps decide (docs/spec/screen.md section 2), kept in IndexedDB.
async function applyRelayPayload(payload) {
  const screen = new DeviceScreen(await stored());
  const change = payload.withdraw
    ? screen.withdrawal(payload.withdraw, payload.stamp, payload.appBadge)
    : screen.alert(payload.tag, payload.stamp, payload.kind === "fallback", payload.appBadge);
  await store(screen.state);
  for (const tag of change.remove) {
    for (const notification of await self.registration.getNotifications({ tag })) notification.close();
  }
  if (change.post) {
    // The Notification API has no subtitle: it leads the body.
    const body = payload.subtitle ? `${payload.subtitle}\n${payload.body}` : payload.body;
    // The sender's picture (push.md P24) as the notification's icon, when the payload carries one.
    await self.registration.showNotification(payload.title, {
      body, tag: payload.tag, lang: payload.lang, dir: payload.dir, renotify: payload.alert,
      silent: !payload.alert, icon: payload.sender?.avatar,
      data: { url: payload.url, stamp: payload.stamp, conversation: payload.conversation?.id },
    });
  }
  if (change.badge !== null && self.navigator.setAppBadge) await self.navigator.setAppBadge(change.badge);
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage({ stamp: payload.stamp, posted: change.post });
}

function database() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("notification-text", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("screen");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function stored() {
  const db = await database();
  return new Promise((resolve, reject) => {
    const request = db.transaction("screen").objectStore("screen").get("state");
    request.onsuccess = () => resolve(request.result ?? {});
    request.onerror = () => reject(request.error);
  });
}

async function store(state) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction("screen", "readwrite");
    transaction.objectStore("screen").put(state, "state");
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
  });
}

async function opened(tag) {
  const screen = new DeviceScreen(await stored());
  screen.opened(tag);
  await store(screen.state);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url;
  const work = [opened(event.notification.tag)];
  if (url) work.push(self.clients.openWindow(url));
  event.waitUntil(Promise.all(work));
});

self.addEventListener("notificationclose", (event) => event.waitUntil(opened(event.notification.tag)));
