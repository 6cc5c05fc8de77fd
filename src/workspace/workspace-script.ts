/**
 * The workspace's one script, run under the page's nonce: live updates from the server-sent events
 * (the changed part of the page is fetched again from the server, which renders and escapes it, and
 * swapped in), and the keyboard (j/k to move in the list, Enter to open; a/r/c to approve, reject and
 * claim on an item, approve after a confirmation). It builds no markup from data itself.
 */
export const workspaceScript = `
(function () {
  "use strict";
  var main = document.getElementById("main");
  var base = main.getAttribute("data-base");
  var live = document.getElementById("live");
  var region = function () { return document.getElementById("live-region"); };
  var refresh = function () {
    var current = region();
    if (!current) return;
    fetch(location.href, { credentials: "same-origin", headers: { "accept": "text/html" } })
      .then(function (answer) { return answer.ok ? answer.text() : ""; })
      .then(function (text) {
        if (!text) return;
        var next = new DOMParser().parseFromString(text, "text/html").getElementById("live-region");
        var now = region();
        if (next && now) { now.replaceWith(document.importNode(next, true)); if (live) live.textContent = "updated " + new Date().toLocaleTimeString(); }
      })
      .catch(function () {});
  };
  if (window.EventSource) {
    var events = new EventSource(base + "/events");
    events.addEventListener("queue", function (event) {
      var item = main.getAttribute("data-item");
      var ids = [];
      try { ids = JSON.parse(event.data).items || []; } catch (e) { ids = []; }
      if (!item || ids.indexOf(item) >= 0) refresh();
    });
  }
  var rows = function () { return Array.prototype.slice.call(document.querySelectorAll("tr[data-href]")); };
  var selected = -1;
  var select = function (index) {
    var all = rows();
    if (all.length === 0) return;
    selected = Math.max(0, Math.min(all.length - 1, index));
    all.forEach(function (row, at) { row.classList.toggle("selected", at === selected); });
    var link = all[selected].querySelector("a");
    if (link) link.focus();
  };
  var submit = function (name) {
    var form = document.querySelector("form[data-action='" + name + "']");
    if (!form) return false;
    var field = form.querySelector("textarea, input[type=text]");
    if (field) { field.focus(); return true; }
    form.requestSubmit();
    return true;
  };
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (event.key === "j") { select(selected + 1); event.preventDefault(); }
    else if (event.key === "k") { select(selected - 1); event.preventDefault(); }
    else if (event.key === "c") { if (submit("claim")) event.preventDefault(); }
    else if (event.key === "r") { if (submit("reject")) event.preventDefault(); }
    else if (event.key === "a") {
      var approve = document.querySelector("form[data-action='approve'], form[data-action='release']");
      if (approve && window.confirm("Send this draft exactly as shown?")) approve.requestSubmit();
      event.preventDefault();
    }
  });
})();
`;
