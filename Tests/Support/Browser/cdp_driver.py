#!/usr/bin/env python3
"""A small driver of headless chromium for the serve pages' tests.

Chromium is driven by its DevTools protocol over a pipe (--remote-debugging-pipe:
it reads commands on fd 3 and writes replies on fd 4, each a JSON text ended by
a NUL byte), so no WebSocket client is needed. The test talks to this driver one
JSON line at a time on stdin, and reads one JSON line back per command:

  {"cmd": "open", "url": U}              -> {"ok": true}               (after the load event)
  {"cmd": "eval", "expr": E}             -> {"ok": true, "value": V}
  {"cmd": "wait", "expr": E, "timeout": S} -> {"ok": bool, "value": V, "elapsed": S}
  {"cmd": "pixels", "points": [[x, y]]}  -> {"ok": true, "rgba": [[r, g, b, a]], "size": [w, h]}
      (a screenshot over a transparent default background, decoded here)
  {"cmd": "errors"}                      -> {"ok": true, "errors": [...]} (exceptions and CSP reports so far)
  {"cmd": "quit"}
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import zlib


# CDP_LOG=FILE: every message from chromium, cut short, for debugging a test.
LOG = open(os.environ["CDP_LOG"], "a") if os.environ.get("CDP_LOG") else None


class Chromium:
    def __init__(self, width, height):
        self.profile = tempfile.mkdtemp(prefix="cdscript-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def child_fds():
            # Moved out of the way first, so that neither dup2 overwrites the other's source;
            # dup2 leaves 3 and 4 open across exec (the originals close on exec).
            read_end = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD_CLOEXEC, 10)
            write_end = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD_CLOEXEC, 10)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        args = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-extensions", "--disable-background-networking", "--hide-scrollbars",
                "--remote-debugging-pipe", f"--window-size={width},{height}",
                f"--user-data-dir={self.profile}"]
        # CDP_EXTRA_ARGS: more of chromium's flags, space-separated (--ignore-certificate-errors for the HTTPS test).
        args += os.environ.get("CDP_EXTRA_ARGS", "").split() + ["about:blank"]
        self.process = subprocess.Popen(args, preexec_fn=child_fds, close_fds=False,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.errors = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.call(domain, {}, session=True)
        # The page's viewport exactly this size (a headless window's is smaller than the window).
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def send(self, method, params, session):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        return self.next_id

    def read_message(self, timeout=None):
        """The next message; None when `timeout` seconds pass without one."""
        while b"\0" not in self.buffer:
            if timeout is not None and not select.select([self.from_chrome], [], [], max(0, timeout))[0]:
                return None
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        message = json.loads(raw)
        if LOG:
            LOG.write(raw[:300].decode(errors="replace") + "\n")
            LOG.flush()
        method = message.get("method")
        if method == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.errors.append(details.get("exception", {}).get("description") or details.get("text"))
        elif method == "Log.entryAdded":
            entry = message["params"]["entry"]
            if entry.get("level") == "error" and entry.get("source") in ("security", "javascript"):
                self.errors.append(entry.get("text"))
        return message

    def call(self, method, params, session=False):
        wanted = self.send(method, params, session)
        while True:
            message = self.read_message()
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_event(self, name, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, event in enumerate(self.events):
                if event["method"] == name:
                    del self.events[: i + 1]
                    return True
            message = self.read_message(timeout=deadline - time.monotonic())
            if message is not None and "method" in message:
                self.events.append(message)
        return False

    def evaluate(self, expr):
        result = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"].get("exception", {}).get("description", "exception"))
        return result["result"].get("value")

    def quit(self):
        try:
            self.send("Browser.close", {}, session=False)
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def png_rgba(data):
    """Width, height and rows of RGBA bytes of an 8-bit RGBA (or RGB) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, color = 8, b"", 0, 0, 6
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            assert body[8] == 8, "8-bit PNG expected"
            color = body[9]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = 4 if color == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    browser = Chromium(int(os.environ.get("CDP_WIDTH", "800")), int(os.environ.get("CDP_HEIGHT", "300")))
    try:
        while True:
            line = sys.stdin.readline()
            if not line:
                break
            command = json.loads(line)
            cmd = command["cmd"]
            try:
                if cmd == "quit":
                    break
                if cmd == "open":
                    navigation = browser.call("Page.navigate", {"url": command["url"]}, session=True)
                    if "errorText" in navigation:
                        reply = {"ok": False, "error": navigation["errorText"]}
                    elif "loaderId" not in navigation:
                        # Only the fragment changed: the same document, no load event.
                        reply = {"ok": True}
                    else:
                        reply = {"ok": browser.wait_event("Page.loadEventFired", 20)}
                elif cmd == "eval":
                    reply = {"ok": True, "value": browser.evaluate(command["expr"])}
                elif cmd == "wait":
                    start = time.monotonic()
                    value = None
                    while time.monotonic() - start < command.get("timeout", 5):
                        value = browser.evaluate(command["expr"])
                        if value:
                            break
                        time.sleep(0.02)
                    reply = {"ok": bool(value), "value": value, "elapsed": time.monotonic() - start}
                elif cmd == "pixels":
                    browser.call("Emulation.setDefaultBackgroundColorOverride",
                                 {"color": {"r": 0, "g": 0, "b": 0, "a": 0}}, session=True)
                    shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=True)
                    width, height, channels, rows = png_rgba(base64.b64decode(shot["data"]))
                    rgba = []
                    for x, y in command["points"]:
                        px = rows[y][x * channels:(x + 1) * channels]
                        rgba.append(list(px) + ([255] if channels == 3 else []))
                    reply = {"ok": True, "rgba": rgba, "size": [width, height]}
                elif cmd == "errors":
                    reply = {"ok": True, "errors": browser.errors}
                else:
                    reply = {"ok": False, "error": f"unknown command {cmd}"}
            except Exception as error:  # reported to the test, which fails with it
                reply = {"ok": False, "error": str(error)}
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
