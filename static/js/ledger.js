/* Warband Ledger's own behaviour, from data attributes, so no page needs an inline script or an on* handler
   (a strict Content-Security-Policy holds). Every page works without this file: it only adds comfort.

   data-confirm="Question?"       on a form or a submit button: ask before a plain (non-htmx) submission that has
                                  no undo (docs/architecture.md: undo over "are you sure?"). htmx elements use hx-confirm instead.
   data-confirm-if="name=value"   with data-confirm: ask only when the form's field `name` holds `value`.
   data-copy-from="#selector"     on a button: copy that field's value to the clipboard, then say "Copied".
   data-print                     on a button: open the browser's print dialog.
   data-select-on-focus           on a read-only field: select its whole text when focused (easy to copy).
   data-outcome-line="#line"      on a <select>: write the picked option's data-outcome into that element, as it
                                  is picked (the tracker's "Damage N"; without this file the page lists them all).
   #board-version[data-version]   the tracker's board version: an htmx request from the board carries it (the
                                  poll's `version=`, a form's `version` field), as only the changed card is swapped;
                                  a tap's answer carrying an older board than the page shows is not swapped in.
                                  It also names the cards the page shows whole (`open=`), kept whole when the
                                  board is drawn again.
   [data-error-summary], [data-refused], .errorlist.nonfield[role=alert], [aria-invalid=true]
                                  a refused form's message (the first of them): brought into view and focused on
                                  a page load and after a form's htmx swap, so the eye and a screen reader find it.
   <meta name="service-worker">   base.html: the service worker (static/sw.js) is registered with the site's paths,
                                  and told the static files this page loaded before it controlled the page. */
(function () {
  "use strict";

  function asks(element, form) {
    var question = element.getAttribute("data-confirm");
    if (!question) return null;
    var condition = element.getAttribute("data-confirm-if");
    if (condition && form) {
      var parts = condition.split("=");
      var field = form.elements.namedItem(parts[0]);
      if (!field || field.value !== parts.slice(1).join("=")) return null;
    }
    return question;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var submitter = event.submitter;
    var question = (submitter && asks(submitter, form)) || asks(form, form);
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("click", function (event) {
    var copy = event.target.closest("[data-copy-from]");
    if (copy) {
      var source = document.querySelector(copy.getAttribute("data-copy-from"));
      if (source && navigator.clipboard) {
        navigator.clipboard.writeText(source.value).then(function () { copy.textContent = "Copied"; });
      }
      return;
    }
    if (event.target.closest("[data-print]")) window.print();
  });

  function showOutcome(select) {
    var line = document.querySelector(select.getAttribute("data-outcome-line"));
    var option = select.options[select.selectedIndex];
    if (line && option && option.hasAttribute("data-outcome")) line.textContent = option.getAttribute("data-outcome");
  }

  function showOutcomes(root) {
    if (root.matches && root.matches("select[data-outcome-line]")) showOutcome(root);
    if (root.querySelectorAll) root.querySelectorAll("select[data-outcome-line]").forEach(showOutcome);
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("select[data-outcome-line]")) showOutcome(event.target);
  });
  document.addEventListener("DOMContentLoaded", function () { showOutcomes(document); });
  document.addEventListener("htmx:load", function (event) { showOutcomes(event.detail.elt); });

  // The board's "By" selects in a card swapped out of band carry no fighters (the poll sends only the changed
  // cards): each takes the other sides' fighters from the page's template for its crew, drawn with the page.
  function fillAttackers() {
    document.querySelectorAll(".tracker-crew select.tf-by-select").forEach(function (select) {
      if (select.options.length > 1) { return; }
      var source = document.getElementById("by-against-" + select.closest(".tracker-crew").id);
      if (source) { select.append(source.content.cloneNode(true)); }
    });
  }
  document.addEventListener("htmx:load", fillAttackers);
  document.addEventListener("htmx:oobAfterSwap", fillAttackers);
  document.addEventListener("htmx:afterSettle", fillAttackers);

  document.addEventListener("htmx:configRequest", function (event) {
    var marker = document.getElementById("board-version");
    if (!marker || !event.detail.elt.closest || !event.detail.elt.closest("#tracker-live")) return;
    var version = marker.getAttribute("data-version");
    if (event.detail.verb === "get") {
      event.detail.path = event.detail.path.replace(/([?&]version=)\d+/, "$1" + version);
    } else if (event.detail.parameters.version !== undefined) {
      event.detail.parameters.version = version;
    }
    // The poll and the forms: a card's own GET needs no list (and keeps one address, for the service worker).
    var open = event.detail.verb === "get" && event.detail.elt.id !== "tracker-live" ? "" : openCards();
    if (open) event.detail.parameters.open = open;
  });

  // The cards of fighters in play the page shows whole (opened, or marked since): a board drawn again keeps them
  // whole rather than folding a fighter at full strength back to its one line under the player's thumb.
  function openCards() {
    var ids = [];
    document.querySelectorAll("#tracker-live .tracker-fighter.status-active:not(.tf-compact)").forEach(function (card) {
      ids.push(card.id.replace("fighter-", ""));
    });
    return ids.join(",");
  }

  // Two taps' answers may come back in either order, each the whole board out of band
  // (combat/views/tracker_common.py, out_of_band): the one from the older board never replaces the newer.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var marker = document.getElementById("board-version");
    var incoming = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (!marker || !incoming || event.detail.target.id !== "tracker-live") return;
    if (Number(incoming.getAttribute("data-version")) < Number(marker.getAttribute("data-version"))) {
      event.detail.shouldSwap = false;
    }
  });

  // Errors where the eye is: a refused form answers with its message beside the field (and a summary at the top
  // of a page that has one); on a phone it may sit below the fold. The first one is scrolled to the middle of the
  // screen and focused (role="alert" announces it). A poll or a GET swap (totals worked out as you type) never
  // moves the focus: only a page load and the answer to a form that was sent.
  // A standing problem of the page's state (data-standing: a blocker shown on every load) is not a refusal.
  var REFUSED = "[data-error-summary], [data-refused], .errorlist.nonfield[role=alert]:not([data-standing]), " +
    "[aria-invalid='true']";
  function bringErrorIntoView(root) {
    var first = root.matches && root.matches(REFUSED) ? root : root.querySelector(REFUSED);
    if (!first) return;
    if (!first.matches("input, select, textarea, button, a[href]") && !first.hasAttribute("tabindex")) {
      first.setAttribute("tabindex", "-1");
    }
    first.scrollIntoView({ block: "center" });
    first.focus({ preventScroll: true });
  }
  document.addEventListener("DOMContentLoaded", function () { bringErrorIntoView(document); });
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb === "get") return;
    // An outerHTML swap leaves the old target detached: look in what was settled, else the whole page.
    var settled = event.target;
    bringErrorIntoView(settled && settled.isConnected && settled.querySelector ? settled : document);
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-focus]")) event.target.select();
  });

  // Installable, and readable offline. Without a service worker (or this file) nothing changes.
  function registerWorker() {
    var meta = document.querySelector('meta[name="service-worker"]');
    if (!meta || !("serviceWorker" in navigator)) return;
    var query = new URLSearchParams({
      static: meta.getAttribute("data-static"),
      offline: meta.getAttribute("data-offline"),
      logout: meta.getAttribute("data-logout"),
      login: meta.getAttribute("data-login")
    });
    navigator.serviceWorker.register(meta.getAttribute("content") + "?" + query.toString(), { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        var urls = [];
        document.querySelectorAll("link[rel=stylesheet][href], script[src], link[rel=icon][href]").forEach(function (node) {
          urls.push(node.href || node.src);
        });
        if (registration.active) registration.active.postMessage({ type: "keep-static", urls: urls });
      })
      .catch(function () { return null; });
  }
  window.addEventListener("load", registerWorker);

  // Back online: a page shown from the phone's copy loses its "Offline — as of" mark once it is fetched again.
  window.addEventListener("online", function () {
    var mark = document.getElementById("offline-mark");
    if (mark) mark.textContent = "Back online: reload the page for its latest copy.";
  });

  // A boosted link that finds no network becomes a plain visit, which the service worker answers from its copy.
  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (config && config.verb === "get" && config.boosted) window.location.href = config.path;
  });
})();
