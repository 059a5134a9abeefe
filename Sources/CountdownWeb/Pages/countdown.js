// /c/ID and /overlay/ID: one countdown, its digits kept by the page between the
// server's events. Query parameters (the overlay's, also honoured on /c/):
// format (countdown.format tokens), color, font, size, bg, progress=0|1, done=TEXT.
"use strict";

(() => {
  const overlay = document.body.classList.contains("overlay");
  const params = new URLSearchParams(location.search);
  const id = CdLive.idFromPath();
  const root = document.getElementById("countdown");
  const title = document.getElementById("title");
  const digits = document.getElementById("digits");
  const bar = document.getElementById("bar");
  const progress = document.getElementById("progress");
  const status = document.getElementById("status");
  const doneText = params.has("done") ? params.get("done") : "Time's up";

  let format;
  try {
    format = CdFormat.compile(params.get("format") || (overlay ? "{hh}:{mm}:{ss}" : "{hh}:{mm}:{ss}.{t}"));
  } catch (e) {
    format = null;
    status.textContent = "format: " + e.message;
  }

  // Styles from the query go through the style object: a value the browser does
  // not accept as that property is dropped, never read as markup or script.
  if (params.has("color")) root.style.color = params.get("color");
  if (params.has("font")) root.style.fontFamily = params.get("font");
  if (params.has("size")) digits.style.fontSize = /^\d+(\.\d+)?$/.test(params.get("size")) ? params.get("size") + "px" : params.get("size");
  const bg = params.get("bg");
  if (bg && bg !== "transparent") document.body.style.background = bg;
  const showProgress = params.has("progress") ? params.get("progress") !== "0" : !overlay;
  progress.hidden = !showProgress;

  let countdowns = new Map();
  let connected = false;

  function show(serverNow) {
    if (!format) return;
    const record = id === null ? undefined : countdowns.get(id);
    if (title) title.textContent = record && record.title ? record.title : (id === null ? "" : id);
    if (!connected) {
      // Lost the server: no time it cannot vouch for.
      root.className = "countdown state-reconnecting";
      digits.textContent = "";
      status.textContent = "reconnecting";
      return;
    }
    if (!record) {
      root.className = "countdown state-missing";
      digits.textContent = "";
      status.textContent = id === null ? "this address names no countdown" : "no stored countdown has this id";
      return;
    }
    const time = CdLive.timeOf(record, serverNow);
    root.className = "countdown state-" + time.state;
    const past = time.state === "overtime" || time.over;
    digits.textContent = (past ? "+" : "") + format(time.ms);
    const total = record.total * 1000;
    const fraction = past || time.state === "finished" ? 1 : total > 0 ? 1 - time.ms / total : 1;
    bar.style.width = (Math.min(1, Math.max(0, fraction)) * 100).toFixed(1) + "%";
    status.textContent = time.state === "finished" ? doneText : time.state === "paused" ? "paused" : time.state === "overtime" ? "overtime" : "";
  }

  let live = null;
  live = CdLive.follow({
    update(all, isConnected) {
      countdowns = all;
      connected = isConnected;
      show(live ? live.serverNow() : Date.now());
    },
    tick(serverNow, isConnected) {
      connected = isConnected;
      show(serverNow);
    },
  });
})();
