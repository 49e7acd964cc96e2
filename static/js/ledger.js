/* Warband Ledger's own behaviour, from data attributes, so no page needs an inline script or an on* handler
   (a strict Content-Security-Policy holds). Every page works without this file: it only adds comfort.

   data-confirm="Question?"       on a form or a submit button: ask before a plain (non-htmx) submission that has
                                  no undo (PRODUCT.md). htmx elements use hx-confirm instead.
   data-confirm-if="name=value"   with data-confirm: ask only when the form's field `name` holds `value`.
   data-copy-from="#selector"     on a button: copy that field's value to the clipboard, then say "Copied".
   data-print                     on a button: open the browser's print dialog.
   data-select-on-focus           on a read-only field: select its whole text when focused (easy to copy). */
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

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-focus]")) event.target.select();
  });
})();
