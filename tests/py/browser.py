#!/usr/bin/python3
"""Headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in NUL on the child's fds 3
and 4), with nothing but the standard library: no websocket client, no
npm. One page load yields the rendered DOM to query, a screenshot, and
every request the page made.

Why this proves "no request outside the file": the protocol's
Network.requestWillBeSent event fires for every request the page starts
(documents, images, fonts, CSS url()s, prefetches), before any DNS lookup
or connection, so a reference that would fail or be blocked is still
seen; the page's own file:// load is one of them. Chromium's own
background traffic (updates, sync) is not the page's and is turned off by
the flags below anyway; --host-resolver-rules keeps anything that slips
through from leaving the machine.

Usage as a script (the README's screenshot):
  tests/py/browser.py PAGE.html SHOT.png [--width=W] [--height=H]
"""
import argparse
import base64
import fcntl
import json
import os
import pathlib
import select
import shutil
import subprocess
import tempfile
import time

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--host-resolver-rules=MAP * ~NOTFOUND",
         "--remote-debugging-pipe"]
TIMEOUT = 60  # seconds for any one answer; a loaded CI machine is slow


class BrowserError(Exception):
    pass


def missing_message():
    return (f"{CHROMIUM} is missing: the browser test needs Debian's "
            f"chromium; run ci/install-deps.sh (as root) to install it")


class Chromium:
    """One headless Chromium with a page target attached (flattened
    session), as a context manager."""

    def __init__(self, width=1200, height=900):
        if not os.access(CHROMIUM, os.X_OK):
            raise BrowserError(missing_message())
        self.profile = tempfile.mkdtemp(prefix="cyclebench-chromium.")
        to_child, self.commands = os.pipe()
        self.replies, from_child = os.pipe()

        def onto_fds_3_and_4():
            # Via fds above 9 first, so neither dup2 clobbers the other.
            low = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
            high = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(low, 3)
            os.dup2(high, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}",
             "about:blank"], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=onto_fds_3_and_4)
        os.close(to_child)
        os.close(from_child)
        self.buffer, self.events, self.next_id = b"", [], 0
        self.session = None
        try:
            self.attach(width, height)
        except BaseException:
            self.close()
            raise

    def attach(self, width, height):
        page = next(t for t in self.call("Target.getTargets")["targetInfos"]
                    if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page[
            "targetId"], flatten=True)["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride", width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    def message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.replies], [], [],
                                              left)[0]:
                raise BrowserError("chromium did not answer in time")
            chunk = os.read(self.replies, 1 << 16)
            if not chunk:
                raise BrowserError("chromium exited")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, **params):
        """Sends a command (to the page once attached), returns its result;
        the events that arrive meanwhile are kept in self.events."""
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            command["sessionId"] = self.session
        os.write(self.commands, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self.message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method):
        deadline = time.monotonic() + TIMEOUT
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self.message(deadline))

    def load(self, path):
        """Opens a local file and waits for its load event."""
        self.call("Network.enable")
        self.call("Page.enable")
        url = pathlib.Path(path).resolve().as_uri()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        return url

    def requests(self):
        """Every URL the page requested so far."""
        return [e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent"]

    def evaluate(self, expression):
        """A JavaScript expression's value (JSON-serialisable)."""
        result = self.call("Runtime.evaluate", expression=expression,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}...: "
                               f"{result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path, full_page=False):
        data = self.call("Page.captureScreenshot", format="png",
                         captureBeyondViewport=full_page)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            if self.proc.poll() is None:
                self.session = None
                self.call("Browser.close")
                self.proc.wait(timeout=10)
        except (BrowserError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            os.close(self.commands)
            os.close(self.replies)
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def main():
    parser = argparse.ArgumentParser(description="Screenshot of a page.")
    parser.add_argument("page")
    parser.add_argument("png")
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=800)
    args = parser.parse_args()
    with Chromium(args.width, args.height) as browser:
        browser.load(args.page)
        browser.screenshot(args.png)


if __name__ == "__main__":
    main()
