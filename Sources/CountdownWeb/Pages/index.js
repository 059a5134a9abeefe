// /: every stored countdown, live, with controls for a viewer who holds the
// control token (given once as /#token=...).
"use strict";

(() => {
  const format = CdFormat.compile("{hh}:{mm}:{ss}");
  const rows = document.getElementById("rows");
  const status = document.getElementById("status");
  const empty = document.getElementById("empty");
  const canControl = CdLive.token() !== null;
  if (canControl) document.getElementById("controls-head").textContent = "Control";
  let cells = new Map();
  let countdowns = new Map();
  let connected = false;

  function button(label, action, id, body) {
    const b = CdLive.element("button", "control", label);
    b.type = "button";
    b.dataset.action = label;
    b.addEventListener("click", () => {
      CdLive.control("/api/countdowns/" + encodeURIComponent(id) + "/" + action, body).then((response) => {
        if (!response.ok) response.json().then((e) => { status.textContent = e.error; }, () => {});
      }, () => { status.textContent = "the server cannot be reached"; });
    });
    return b;
  }

  function rebuild() {
    rows.replaceChildren();
    cells = new Map();
    const ids = Array.from(countdowns.keys()).sort();
    for (const id of ids) {
      const row = CdLive.element("tr", "countdown");
      const name = CdLive.element("td", "id");
      const link = CdLive.element("a", null, id);
      link.href = "/c/" + encodeURIComponent(id);
      name.appendChild(link);
      const state = CdLive.element("td", "state");
      const time = CdLive.element("td", "time");
      row.append(name, state, time);
      if (canControl) {
        const controls = CdLive.element("td", "controls");
        controls.append(button("pause", "pause", id), button("resume", "resume", id),
          button("+1m", "append", id, { duration: "1m" }), button("-1m", "append", id, { duration: "-1m" }),
          button("cancel", "cancel", id));
        row.appendChild(controls);
      }
      rows.appendChild(row);
      cells.set(id, { row, state, time });
    }
    empty.hidden = !connected || ids.length > 0;
  }

  function tick(serverNow) {
    status.textContent = connected ? "" : "reconnecting";
    for (const [id, cell] of cells) {
      const record = countdowns.get(id);
      if (!connected || !record) {
        cell.time.textContent = "";
        continue;
      }
      const t = CdLive.timeOf(record, serverNow);
      cell.row.className = "countdown state-" + t.state;
      cell.state.textContent = t.state;
      cell.time.textContent = (t.state === "overtime" || t.over ? "+" : "") + format(t.ms);
    }
  }

  let live = null;
  live = CdLive.follow({
    update(all, isConnected) {
      countdowns = all;
      connected = isConnected;
      rebuild();
      tick(live ? live.serverNow() : Date.now());
    },
    tick(serverNow, isConnected) {
      connected = isConnected;
      tick(serverNow);
    },
  });
})();
