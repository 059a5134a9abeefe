// The pages' live view of the stored countdowns: one event stream from the
// server (a snapshot on connect, then one event per change), and the time kept
// here from each countdown's deadline and the server's clock, so the page ticks
// without a message per tick. Everything shown is text (textContent): nothing
// from the server or the URL ever becomes markup.
"use strict";

const CdLive = (() => {
  // The control token, given once as /#token=... and kept for this tab.
  function token() {
    const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
    if (match) {
      try { sessionStorage.setItem("cdscript-token", decodeURIComponent(match[1])); } catch (e) { /* storage off: keep none */ }
      history.replaceState(null, "", location.pathname + location.search);
    }
    try { return sessionStorage.getItem("cdscript-token"); } catch (e) { return null; }
  }

  // The id in /c/ID or /overlay/ID, percent-decoded; null when it cannot be.
  function idFromPath() {
    const parts = location.pathname.split("/");
    if (parts.length !== 3) return null;
    try { return decodeURIComponent(parts[2]); } catch (e) { return null; }
  }

  // What a countdown shows at this moment: its state now and the time to show
  // (milliseconds left, or past its end in overtime), from the record and the
  // server's clock as this page reckons it.
  function timeOf(record, serverNow) {
    const canRunOver = record.overtime !== null && record.overtime !== undefined;
    switch (record.state) {
      case "running": {
        const left = Date.parse(record.deadline) - serverNow;
        if (left > 0) return { state: "running", ms: left };
        return canRunOver ? { state: "overtime", ms: -left } : { state: "finished", ms: 0 };
      }
      case "overtime":
        return { state: "overtime", ms: Math.max(0, serverNow - Date.parse(record.deadline)) };
      case "paused":
        if (canRunOver && record.overtime > 0) return { state: "paused", ms: record.overtime * 1000, over: true };
        return { state: "paused", ms: record.remaining * 1000 };
      default:
        return { state: "finished", ms: 0 };
    }
  }

  // How many heartbeat intervals of silence mean a dead connection: more than
  // two, so that one heartbeat late on a busy server is not taken for a loss.
  const silentIntervals = 2.25;

  // Opens an event stream and keeps it open, noticing a server that went silent
  // without closing the connection (its host gone, the network cut, its process
  // stopped): the server sends a `heartbeat` event first and then once per
  // interval, its data the interval in milliseconds, so a silence longer than
  // `silentIntervals` of them is a lost connection, which is closed and opened
  // anew. Until a server has announced its interval, no silence is timed.
  // `on.message(data)` gets each message's JSON; `on.lost()` is called
  // whenever the stream is lost (then no time can be vouched for).
  // Returns { close() }, which stops for good.
  function stream(url, on) {
    let source = null;
    let watchdog = null;
    let limit = null;
    let closed = false;
    function watch() {
      clearTimeout(watchdog);
      if (limit !== null && !closed) watchdog = setTimeout(silent, limit);
    }
    function silent() {
      source.close();
      on.lost();
      if (!closed) open();
    }
    function open() {
      const current = new EventSource(url);
      source = current;
      watch();
      current.addEventListener("heartbeat", (event) => {
        const every = Number(event.data);
        if (every > 0) limit = every * silentIntervals;
        watch();
      });
      current.onmessage = (message) => {
        watch();
        let data;
        try { data = JSON.parse(message.data); } catch (e) { return; }
        on.message(data);
      };
      current.onerror = () => {
        if (current !== source) return;
        on.lost();
        // EventSource tries again by itself after a lost connection (the watchdog
        // still times that attempt); after a refusal it gives up, and a new one
        // starts a little later.
        if (!closed && current.readyState === EventSource.CLOSED) {
          clearTimeout(watchdog);
          setTimeout(() => { if (!closed) open(); }, 2000);
        }
      };
    }
    open();
    return {
      close() {
        closed = true;
        clearTimeout(watchdog);
        source.close();
      },
    };
  }

  // Connects and keeps connecting. `view.update(countdowns, connected)` is
  // called on every change; `view.tick()` ten times a second. countdowns: a Map
  // from id to record. While not connected, the page must show no time.
  function follow(view) {
    const countdowns = new Map();
    let offset = 0;
    let connected = false;
    const secret = token();
    stream("/api/events" + (secret ? "?token=" + encodeURIComponent(secret) : ""), {
      message(data) {
        if (data.event === "snapshot") {
          // The server's clock against this one, measured as the stream opens.
          offset = data.now - Date.now();
          countdowns.clear();
          for (const c of data.countdowns) countdowns.set(c.id, c);
          connected = true;
        } else if (data.event === "cancel") {
          countdowns.delete(data.id);
        } else if (data.countdown) {
          countdowns.set(data.id, data.countdown);
        }
        view.update(countdowns, connected, data);
      },
      lost() {
        // Until the next snapshot, no time can be vouched for.
        connected = false;
        view.update(countdowns, connected, null);
      },
    });
    setInterval(() => view.tick(Date.now() + offset, connected), 100);
    return { countdowns, serverNow: () => Date.now() + offset, isConnected: () => connected };
  }

  // POST to the API with the token; resolves to the response.
  function control(path, body) {
    const headers = { "Content-Type": "application/json" };
    const secret = token();
    if (secret) headers.Authorization = "Bearer " + secret;
    return fetch(path, { method: "POST", headers, body: body === undefined ? "{}" : JSON.stringify(body) });
  }

  // An element with a class and text, built without markup.
  function element(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  return { token, idFromPath, timeOf, stream, follow, control, element };
})();
