// Civitas service worker: shows a notification for each push (title, body, link) and opens or
// focuses the game's page when it is clicked. Served at /sw.js so its scope is the whole site.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { title: "Civitas", body: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(data.title || "Civitas", {
    body: data.body || "", tag: data.tag, data: { url: data.url || "/" }, icon: "/static/favicon.svg",
  }));
  // Open pages hear of it too (tests and the page's own signals read this).
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => pages.forEach((page) => page.postMessage({ type: "push", data }))));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => {
    const open = pages.find((page) => new URL(page.url).pathname === url.pathname);
    return open ? open.focus() : self.clients.openWindow(url.pathname);
  }));
});
