/* Warband Ledger's service worker: the pages a player opened stay readable when the signal drops.

   Served from the site root as /sw.js (config/pwa.py) so that it controls every page; ledger.js registers it with
   the site's own paths in the query string (`static`, `offline`, `logout`, `login`), so this file names none.

   - Static files: cache first. Their names carry the hash of their content (WhiteNoise's manifest), so a name
     never changes meaning and a cached copy is never stale. Under a plain name (DEBUG and the tests, where
     Django serves files unhashed): the network first, the kept copy without one.
   - Pages (a GET navigation): the network first; each page that answered is kept, stamped with the time it was
     fetched. With no network, the last copy is shown, marked "Offline — as of 21:14"; a page never opened here
     gets the offline page.
   - A part a page fetches on its own as it loads (an htmx GET with `part=` in its query string, such as the
     roster's rows after its first screen): the network first, each answer kept; with no network, the kept copy,
     so the page read offline is whole. A part never fetched here fails, and htmx leaves the page as it is.
   - htmx's other requests and every write go to the network untouched: a write offline is the page's business
     (the board queues its taps, ledger.js).
   - Logging out, or in, deletes the kept pages: the next person on this phone sees none of them.

   The caches' names carry VERSION: a new worker deletes the caches of the ones before it. */
"use strict";

var VERSION = "v1";
var STATIC_CACHE = "ledger-static-" + VERSION;
var PAGES_CACHE = "ledger-pages-" + VERSION;
// The offline page names no one (templates/offline.html): it is kept apart, and kept across logging out.
var OFFLINE_CACHE = "ledger-offline-" + VERSION;
var FETCHED_AT = "X-Ledger-Fetched-At";

var params = new URL(self.location.href).searchParams;
var STATIC_PREFIX = params.get("static") || "/static/";
var OFFLINE_URL = params.get("offline") || "/offline/";
var FORGETTING = [params.get("logout") || "/accounts/logout/", params.get("login") || "/accounts/login/"];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(OFFLINE_CACHE)
      .then(function (cache) { return cache.add(new Request(OFFLINE_URL, { credentials: "same-origin" })); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  var current = [STATIC_CACHE, PAGES_CACHE, OFFLINE_CACHE];
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf("ledger-") === 0 && current.indexOf(name) < 0;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

// A page asks for the static files it loaded before this worker controlled it (its first visit).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "keep-static" && Array.isArray(data.urls)) {
    event.waitUntil(caches.open(STATIC_CACHE).then(function (cache) {
      return Promise.all(data.urls.filter(isStatic).map(function (url) {
        return cache.match(url).then(function (found) { return found || cache.add(url); });
      }));
    }).catch(function () { return null; }));
  }
});

function isStatic(url) {
  var parsed = new URL(url, self.location.href);
  return parsed.origin === self.location.origin && parsed.pathname.indexOf(STATIC_PREFIX) === 0;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    if (FORGETTING.indexOf(url.pathname) >= 0) {
      event.respondWith(caches.delete(PAGES_CACHE).then(function () { return fetch(request); }));
    }
    return;
  }
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(HASHED.test(url.pathname) ? cacheFirst(request) : freshFirst(request));
  } else if (request.mode === "navigate" && !request.headers.get("HX-Request")) {
    event.respondWith(networkFirst(request));
  } else if (request.headers.get("HX-Request") && url.searchParams.has("part")) {
    event.respondWith(partNetworkFirst(request));
  }
});

// A page's part (an htmx GET): kept under its own address, which the page itself never answers to (the part's
// address without HX-Request is the whole page, never kept here for it: pages are kept by navigations only).
function partNetworkFirst(request) {
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      caches.open(PAGES_CACHE).then(function (cache) { return cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.match(request, { ignoreVary: true }).then(function (found) { return found || Response.error(); });
    });
  });
}

// A name with its content's hash in it (WhiteNoise's manifest: ledger.3f2a9c01b7de.css) never changes meaning.
var HASHED = /\.[0-9a-f]{12}\.[A-Za-z0-9]+$/;

// A static file under its plain name (DEBUG, `make run`, the tests): its content may change under the same name,
// so the network first, and the kept copy only without one.
function freshFirst(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return fetch(request).then(function (response) {
      if (response.ok) cache.put(request, response.clone());
      return response;
    }).catch(function () {
      return cache.match(request).then(function (found) { return found || Response.error(); });
    });
  });
}

function cacheFirst(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request).then(function (found) {
      return found || fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
    });
  });
}

function networkFirst(request) {
  return fetch(request).then(function (response) {
    var type = response.headers.get("Content-Type") || "";
    if (response.ok && response.type === "basic" && type.indexOf("text/html") === 0) {
      var kept = stamped(response.clone());
      caches.open(PAGES_CACHE).then(function (cache) { return kept.then(function (copy) { return cache.put(request, copy); }); });
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.match(request, { ignoreVary: true }).then(function (found) {
        if (found) return marked(found);
        return caches.match(OFFLINE_URL, { cacheName: OFFLINE_CACHE }).then(function (offline) {
          return offline || new Response("Offline, and this page was not opened here before.", {
            status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" }
          });
        });
      });
    });
  });
}

// The copy kept, with the moment it was fetched (the "as of" of its offline mark).
function stamped(response) {
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    // The body is kept decoded: it must not claim the length or the compression of the one on the wire.
    headers.delete("Content-Encoding");
    headers.delete("Content-Length");
    headers.set(FETCHED_AT, String(Date.now()));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function twoDigits(number) {
  return (number < 10 ? "0" : "") + number;
}

// The last copy, marked at the top of its content: "Offline — as of 21:14" (the phone's own clock).
function marked(response) {
  var moment = new Date(Number(response.headers.get(FETCHED_AT)) || Date.now());
  var asOf = twoDigits(moment.getHours()) + ":" + twoDigits(moment.getMinutes());
  var mark = '<p class="message offline-mark" id="offline-mark" role="status">Offline — as of ' + asOf +
    ": this is the last copy this phone saw. It updates when the connection returns.</p>";
  return response.text().then(function (html) {
    var body = html.replace('<main id="main" class="container">', function (main) { return main + mark; });
    var headers = new Headers(response.headers);
    headers.delete("Content-Length");
    headers.set("X-Ledger-Offline", asOf);
    return new Response(body, { status: 200, headers: headers });
  });
}
