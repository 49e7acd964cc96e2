/* Taps and typed dice while the signal is gone: on the tracker's board and on the post-game wizard's
   roll steps. Without this file, or without JavaScript, both work as before: each is a POST that needs the
   connection.

   form[data-offline-queue]   a board card's forms (Quick Damage, +1 Harm, +1 Injury, Fatigue, Recover Harm, Out of Action,
                              a Trench Crusade model's markers, Down and its Injury Roll with the faces typed in) and
                              the wizard's roll forms (the dice typed in). "Roll for me" needs the server: it is never
                              kept, its button is disabled offline and the page asks for the physical dice. One made
                              offline (or whose request found no network) is kept in IndexedDB with the board
                              version it was made on, what was typed, and an idempotency key.
                              `data-queue-words` names it when its button has no label of its own.
   #offline-queue             lists the kept ones in order, greyed, "will be sent when back online"; its
                              `data-scope` names the page's game (or post-game) and the person logged in (a phone
                              passed on after logging out never sends one person's taps as another's), and
                              `data-refresh` the part to fetch again once they are sent. When the connection
                              returns they are sent one by one through the same endpoints, as htmx sends them;
                              the server applies a key once (combat/services/tracker/keys.py), and a post-game roll
                              once per fighter and step.
                              One refused (the other phone changed that fighter) stays listed with the reason —
                              who changed it — and what was typed, to redo or drop.

   Taps kept together share a batch: they were made on the same board, so the server checks each against what the
   other phones changed, not against the taps of the same batch sent before it. */
(function () {
  "use strict";

  var STORE = "taps";
  var RETRY_MS = 5000;
  var panel = document.getElementById("offline-queue");
  if (!panel || !window.indexedDB || !window.fetch) return;
  var game = panel.getAttribute("data-scope");
  var refresh = panel.getAttribute("data-refresh");
  var list = panel.querySelector("ol");
  var sending = false;
  var database = null;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // One batch per game until its queue is empty (it survives a reload of the board from the phone's copy).
  function batch() {
    var name = "ledger-offline-batch-" + game;
    var value = window.localStorage.getItem(name);
    if (!value) {
      value = newKey();
      window.localStorage.setItem(name, value);
    }
    return value;
  }

  function open() {
    if (database) return database;
    database = new Promise(function (resolve, reject) {
      var request = indexedDB.open("warband-ledger", 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
    return database;
  }

  function store(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(STORE, mode);
        var result = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () { resolve(result && result.result); };
        transaction.onerror = function () { reject(transaction.error); };
      });
    });
  }

  function taps() {
    return store("readonly", function (objects) { return objects.getAll(); }).then(function (all) {
      return (all || []).filter(function (tap) { return tap.game === game; });
    });
  }

  function put(tap) { return store("readwrite", function (objects) { return objects.put(tap); }); }
  function drop(id) { return store("readwrite", function (objects) { return objects.delete(id); }); }

  function boardVersion() {
    var marker = document.getElementById("board-version");
    return marker ? marker.getAttribute("data-version") : null;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // The dice typed in, by their labels ("Tens die 3, Units die 5").
  function typedDice(form) {
    var typed = [];
    form.querySelectorAll('input[type="number"]').forEach(function (input) {
      var label = input.closest("label") || (input.id && form.querySelector('label[for="' + input.id + '"]'));
      var name = label ? label.textContent.trim() : (input.getAttribute("aria-label") || input.name);
      if (input.value) typed.push(name + " " + input.value);
    });
    return typed.join(", ");
  }

  // The button that sent a form, as the form itself is what htmx reports for a form with hx-post on it.
  var lastSubmitter = null;
  document.addEventListener("submit", function (event) { lastSubmitter = event.submitter || null; }, true);

  // What the tap was, in the page's words, always with whom it was for: "Out of Action: Brick", "+ Blood Marker on
  // Kit" (its button's label, with the words a screen reader hears), "Quick Damage 2 to Fidus"; the fighter's name
  // put first when the button's words lack it. A tap outside a card says its button's label or the form's words.
  function describe(element, fields) {
    var form = element.closest("form");
    var card = element.closest(".tracker-fighter");
    var name = card && card.querySelector(".tf-name") ? card.querySelector(".tf-name").textContent.trim() : "";
    var damage = fields.filter(function (field) { return field[0] === "damage"; })[0];
    if (damage) return { words: "Quick Damage " + damage[1] + (name ? " to " + name : ""), typed: "Damage " + damage[1] };
    var button = element.matches("button") ? element :
      (lastSubmitter && form && lastSubmitter.form === form ? lastSubmitter : null);
    var words = element.getAttribute("aria-label") || (button && button.getAttribute("aria-label")) ||
      (form && form.getAttribute("data-queue-words")) || (button || element).textContent.replace(/\s+/g, " ").trim();
    if (name && words.indexOf(name) < 0) words = name + ": " + words;
    return { words: words, typed: form ? typedDice(form) : "" };
  }

  function keep(element, path, formData, target) {
    var fields = [];
    formData.forEach(function (value, name) { if (name !== "batch") fields.push([name, String(value)]); });
    fields.push(["batch", batch()]);
    var version = fields.filter(function (field) { return field[0] === "version"; })[0];
    var what = describe(element, fields);
    return put({
      game: game,
      url: path,
      fields: fields,
      target: target && target.id ? target.id : "",
      words: what.words,
      typed: what.typed,
      version: version ? version[1] : "",
      made: Date.now(),
      state: "queued",
      reason: ""
    }).then(show);
  }

  // A server roll is never queued: offline, its button is disabled and the page asks for the physical dice.
  function queueable(element, formData) {
    var form = element && element.closest && element.closest("form[data-offline-queue]");
    return Boolean(form) && formData.get("mode") !== "roll" && formData.get("roll") !== "server";
  }

  // Every tap of a card carries a key, so one whose answer is lost can be sent again safely.
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail.verb !== "post" || !queueable(detail.elt, detail.formData)) return;
    if (!detail.parameters.key) detail.parameters.key = newKey();
    if (navigator.onLine === false) {
      event.preventDefault();
      keep(detail.elt, detail.path, detail.formData, detail.target);
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb !== "post") return;
    if (queueable(config.elt, config.formData)) {
      keep(config.elt, config.path, config.formData, config.target);
    } else if (config.elt && config.elt.closest && config.elt.closest("form[data-offline-queue]")) {
      // The server's dice found no network: nothing was rolled; say so and ask for the physical dice.
      panel.hidden = false;
      panel.querySelector("[data-offline-note]").hidden = false;
    }
  });

  function item(tap) {
    var entry = document.createElement("li");
    entry.className = "queued-tap " + tap.state;
    var made = new Date(tap.made);
    var when = String(made.getHours()).padStart(2, "0") + ":" + String(made.getMinutes()).padStart(2, "0");
    var line = document.createElement("span");
    if (tap.state === "refused") {
      line.textContent = "Not applied: " + tap.words + (tap.typed ? " (you typed " + tap.typed + ")" : "") +
        ", tapped at " + when + ". " + tap.reason;
      entry.appendChild(line);
      entry.appendChild(button("Redo on the board as it is now", "redo", tap.id));
      entry.appendChild(button("Drop it", "drop", tap.id));
    } else {
      var typed = tap.typed && tap.words.indexOf(tap.typed) < 0 ? " (you typed " + tap.typed + ")" : "";
      line.textContent = tap.words + typed + ", tapped at " + when + " — will be sent when back online.";
      entry.appendChild(line);
    }
    return entry;
  }

  function button(text, action, id) {
    var control = document.createElement("button");
    control.type = "button";
    control.className = "small secondary";
    control.textContent = text;
    control.setAttribute("data-queue-action", action);
    control.setAttribute("data-queue-id", String(id));
    return control;
  }

  function show() {
    return taps().then(function (all) {
      list.replaceChildren.apply(list, all.map(item));
      panel.hidden = all.length === 0 && navigator.onLine !== false;
      panel.querySelector("[data-offline-note]").hidden = navigator.onLine !== false;
      var count = panel.querySelector("[data-queue-count]");
      count.textContent = String(all.length);
      if (all.length === 0) window.localStorage.removeItem("ledger-offline-batch-" + game);
      return all;
    });
  }

  // Server rolls need the server: offline, "Roll for me" waits and the board asks for the physical dice.
  function markOffline() {
    var offline = navigator.onLine === false;
    document.querySelectorAll('button[name="roll"][value="server"], button[name="mode"][value="roll"]').forEach(function (roll) {
      roll.disabled = offline;
    });
    show();
  }

  function refusal(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var reason = page.querySelector("#tracker-error, .errorlist[role=alert], [role=alert]");
    return reason ? reason.textContent.replace(/^Not applied: [^.]*\.\s*/, "").trim() : "It was refused.";
  }

  function send(tap) {
    var headers = { "HX-Request": "true", "X-CSRFToken": csrfToken(), "Content-Type": "application/x-www-form-urlencoded" };
    if (tap.target) headers["HX-Target"] = tap.target;
    return fetch(tap.url, {
      method: "POST", credentials: "same-origin", headers: headers, body: new URLSearchParams(tap.fields).toString()
    }).then(function (response) {
      if (response.redirected) throw new Error("logged out");
      if (response.ok) return drop(tap.id).then(function () { return true; });
      return response.text().then(function (html) {
        tap.state = "refused";
        tap.reason = response.status === 403 ? "You may not act on this board any more." : refusal(html);
        return put(tap).then(function () { return true; });
      });
    });
  }

  function sendAll() {
    if (sending || navigator.onLine === false) return;
    sending = true;
    var sent = false;
    function next() {
      return taps().then(function (all) {
        var tap = all.filter(function (each) { return each.state === "queued"; })[0];
        if (!tap) return null;
        return send(tap).then(function () { sent = true; return show(); }).then(next);
      });
    }
    next().catch(function () { return null; }).then(function () {
      sending = false;
      show();
      if (sent && window.htmx && refresh && document.querySelector(refresh)) {
        window.htmx.ajax("GET", window.location.pathname, { target: refresh, select: refresh, swap: "outerHTML" });
      }
    });
  }

  panel.addEventListener("click", function (event) {
    var control = event.target.closest("[data-queue-action]");
    if (!control) return;
    var id = Number(control.getAttribute("data-queue-id"));
    if (control.getAttribute("data-queue-action") === "drop") {
      drop(id).then(show);
      return;
    }
    taps().then(function (all) {
      var tap = all.filter(function (each) { return each.id === id; })[0];
      if (!tap) return null;
      var version = boardVersion();
      tap.fields = tap.fields.map(function (field) {
        if (field[0] === "key") return ["key", newKey()];
        if (field[0] === "version" && version !== null) return ["version", version];
        return field;
      });
      tap.state = "queued";
      tap.reason = "";
      return put(tap);
    }).then(show).then(sendAll);
  });

  window.addEventListener("online", function () { markOffline(); sendAll(); });
  window.addEventListener("offline", markOffline);
  document.addEventListener("htmx:load", function () { if (navigator.onLine === false) markOffline(); });
  // A tap whose answer was lost stays kept: tried again every few seconds while there is something to send.
  window.setInterval(function () {
    if (list.children.length && navigator.onLine !== false) sendAll();
  }, RETRY_MS);
  markOffline();
  sendAll();
})();
