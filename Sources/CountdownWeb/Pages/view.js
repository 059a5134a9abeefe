// `cdscript run SCRIPT --serve`: the script's view, as the terminal shows it.
// The server sends the whole view on connect and again at each change (never
// per tick unless the view changed); this page draws it with text only
// (textContent, never markup) and keeps each element's node between messages,
// so a button being clicked is not replaced under the pointer. A click POSTs
// the button's key with the control token: the script sees a key press.
"use strict";

(() => {
  const main = document.getElementById("view");
  const status = document.getElementById("status");
  const pausedNote = document.getElementById("paused");
  const errorNote = document.getElementById("error");
  const styles = ["bold", "dim", "italic", "underline", "inverse"];
  const colours = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];
  const secret = CdLive.token();
  const nodes = new Map(); // element id -> { kind, node, parts }
  let view = null;
  let ended = false;
  let message = "";

  function styleClasses(style) {
    const classes = [];
    if (!style) return classes;
    for (const name of styles) if (style[name] === true) classes.push("s-" + name);
    if (colours.includes(style.color)) classes.push("c-" + style.color);
    return classes;
  }

  function make(element) {
    switch (element.kind) {
      case "label":
      case "big":
        return { node: CdLive.element("div", element.kind) };
      case "progress": {
        const node = CdLive.element("div", "bar");
        node.setAttribute("role", "progressbar");
        node.setAttribute("aria-valuemin", "0");
        node.setAttribute("aria-valuemax", "100");
        const track = CdLive.element("div", "track");
        const fill = CdLive.element("div", "fill");
        const percent = CdLive.element("span", "percent");
        track.appendChild(fill);
        node.appendChild(track);
        node.appendChild(percent);
        return { node, fill, percent };
      }
      case "button": {
        const node = CdLive.element("button", "button");
        node.type = "button";
        const caption = CdLive.element("span", "caption");
        const key = CdLive.element("span", "key");
        node.appendChild(caption);
        node.appendChild(key);
        const entry = { node, caption, key };
        node.addEventListener("click", () => press(entry.keyName));
        return entry;
      }
      default:
        return null;
    }
  }

  function fill(entry, element) {
    const node = entry.node;
    node.dataset.id = element.id;
    switch (element.kind) {
      case "label":
      case "big":
        node.textContent = element.text;
        break;
      case "progress": {
        const value = Math.min(1, Math.max(0, Number(element.value) || 0));
        entry.fill.style.width = (value * 100).toFixed(1) + "%";
        entry.percent.textContent = Math.floor(value * 100) + "%";
        node.setAttribute("aria-valuenow", String(Math.floor(value * 100)));
        break;
      }
      case "button":
        entry.keyName = element.key;
        entry.caption.textContent = element.label;
        entry.key.textContent = "[" + element.key + "]";
        node.disabled = !element.enabled || ended;
        break;
    }
    const base = element.kind === "progress" ? "bar" : element.kind;
    node.className = [base].concat(styleClasses(element.style)).join(" ");
  }

  function draw() {
    const connected = view !== null;
    document.body.className = "script-view " + (ended ? "state-ended" : connected ? "state-connected" : "state-reconnecting");
    main.hidden = !connected;
    if (!connected) {
      // Lost the server: what the view showed may be out of date by now.
      status.textContent = "reconnecting";
      pausedNote.hidden = true;
      errorNote.hidden = true;
      return;
    }
    document.title = view.title || "cdscript";
    const seen = new Set();
    let previous = null;
    for (const element of view.elements) {
      let entry = nodes.get(element.id);
      if (entry && entry.kind !== element.kind) {
        // Another kind under the same id (a script reloaded on save): a new node.
        entry.node.remove();
        entry = undefined;
      }
      if (!entry) {
        entry = make(element);
        if (!entry) continue;
        entry.kind = element.kind;
        nodes.set(element.id, entry);
      }
      fill(entry, element);
      seen.add(element.id);
      // In the view's order, moving a node only when it is out of place.
      const expected = previous ? previous.nextSibling : main.firstChild;
      if (expected !== entry.node) main.insertBefore(entry.node, expected);
      previous = entry.node;
    }
    for (const [id, entry] of nodes) {
      if (!seen.has(id)) {
        entry.node.remove();
        nodes.delete(id);
      }
    }
    pausedNote.hidden = view.paused === null || view.paused === undefined;
    pausedNote.textContent = view.paused || "";
    errorNote.hidden = !view.error;
    errorNote.textContent = view.error || "";
    status.textContent = ended ? "the script's view was closed" : message || (secret ? "" : "read only: open this page as /#token=TOKEN to press its buttons");
  }

  function press(key) {
    if (key === undefined || ended) return;
    CdLive.control("/api/view/press", { key }).then((response) => {
      if (response.ok) {
        message = "";
      } else if (response.status === 401) {
        message = "pressing needs the control token: open this page as /#token=TOKEN";
      } else {
        return response.json().then((body) => { message = String(body.error || response.status); });
      }
    }).catch(() => { message = "the press did not reach the server"; }).finally(draw);
  }

  // A key typed on the page presses the button bound to it, as in the terminal.
  const named = { " ": "space", Enter: "enter", Tab: "tab", Backspace: "backspace", Escape: "escape",
                  ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
  document.addEventListener("keydown", (event) => {
    if (view === null || event.ctrlKey || event.altKey || event.metaKey) return;
    const key = named[event.key] || (event.key.length === 1 ? event.key : null);
    const button = key && view.elements.find((e) => e.kind === "button" && e.key === key);
    if (!button || !button.enabled) return;
    event.preventDefault();
    press(key);
  });

  // The view's stream, which notices a silent server as the countdown pages do (CdLive.stream).
  const live = CdLive.stream("/api/view/events" + (secret ? "?token=" + encodeURIComponent(secret) : ""), {
    message(data) {
      if (data.event !== "view" || !Array.isArray(data.elements)) return;
      view = data;
      ended = data.closed === true;
      draw();
    },
    lost() {
      // A run that closed its view ends: the page says so rather than waiting.
      if (ended) {
        live.close();
        draw();
        return;
      }
      view = null;
      draw();
    },
  });
})();
