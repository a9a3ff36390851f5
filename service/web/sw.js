// The web app's service worker (served at /sw.js, stamped with the release's version).
// It keeps the app shell so the page opens offline (the offline page says so), and shows the
// pushes the service sends (docs/notifications.md). Every request for the shell goes to the
// network first, the cache only when the network fails, so a page never runs a stale script
// after a deploy; a new release's worker replaces the old one and deletes its cache.

const VERSION = "__VERSION__";
const SHELL = ["__SHELL__"];
const CACHE = `loveletter-shell-${VERSION}`;
const OFFLINE = "/web/offline.html";
const KEPT = new Set(SHELL);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL.map((path) => new Request(path, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith("loveletter-shell-") && name !== CACHE)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () =>
      (await caches.match(OFFLINE, { cacheName: CACHE })) || Response.error()));
    return;
  }
  if (!KEPT.has(url.pathname)) return; // the API: never from a cache
  event.respondWith((async () => {
    try {
      const fresh = await fetch(request);
      if (fresh.ok) {
        const cache = await caches.open(CACHE);
        await cache.put(url.pathname, fresh.clone());
      }
      return fresh;
    } catch (error) {
      const kept = await caches.match(url.pathname, { cacheName: CACHE });
      if (kept) return kept;
      throw error;
    }
  })());
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === "string" ? data.title : "Love Letter";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof data.body === "string" ? data.body : "",
    lang: data.lang || "",
    tag: `${data.type}-${data.game}`, // a newer notice of the same game replaces the older
    renotify: data.type === "your_turn",
    icon: "/web/icons/icon-192.png",
    data: { url: typeof data.url === "string" ? data.url : "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) return; // only this app's own pages
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => new URL(client.url).origin === url.origin);
    if (open) {
      await open.focus();
      return open.navigate(url.href); // the game, at its current turn
    }
    return self.clients.openWindow(url.href);
  })());
});
