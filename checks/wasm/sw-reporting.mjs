// A test-only prefix to examples/service-worker/sw.js (served as sw.js, the
// example beside it as sw-example.js) for checks/wasm/service_worker_test.py:
// it reports to the open page when a push reached the worker and when the
// worker's showNotification() has resolved, so the page reads
// getNotifications() once, after that, and never while a notification is
// being shown. Chromium's getNotifications() deletes from its database every
// stored notification that the platform does not yet report as displayed
// and that was created before the read began
// (platform_notification_context_impl.cc,
// DoReadAllNotificationDataForServiceWorkerRegistration): a read racing a
// display loses that notification for good, though showNotification resolved.
import "./sw-example.js";

const report = (message) =>
  self.clients.matchAll({ includeUncontrolled: true, type: "window" })
    .then((clients) => clients.forEach((client) => client.postMessage(message)));

self.addEventListener("push", () => report({ event: "push" }));

const show = self.registration.showNotification.bind(self.registration);
self.registration.showNotification = async (title, options) => {
  await show(title, options);
  await report({ event: "shown", title });
};
