#!/usr/bin/env python3
"""Opens a page of an `ich predict` report in headless Chromium and prints, as JSON, what a reader
sees there: every image and whether the browser decoded it, the calls (their words and colours),
the tiles with their frames, the tables' cells, the page's text and, after a click on the first
tile, the enlarged slice.

    python3 scripts/ci/browser-check.py PAGE.html [--screenshot OUT.png] [--chromium PATH]

The browser is driven over the DevTools protocol on a pipe (--remote-debugging-pipe): Python's
standard library only, no network, no driver to download. Used by crates/ich/tests/browser.rs.
"""
import argparse
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

FACTS = r"""
(async () => {
  const imgs = [...document.images];
  await Promise.all(imgs.map(i => i.decode().catch(() => null)));
  const loaded = i => i.complete && i.naturalWidth > 0;
  const tiles = [...document.querySelectorAll('.tile')].map(t => {
    const cs = getComputedStyle(t);
    const img = t.querySelector('img');
    const link = t.querySelector('a');
    return {
      cls: t.className, border: cs.borderTopColor, outline: cs.outlineStyle,
      outline_color: cs.outlineColor, text: t.innerText,
      img_width: img ? img.getBoundingClientRect().width : 0,
      natural: img ? [img.naturalWidth, img.naturalHeight] : null,
      href: link ? link.getAttribute('href') : null,
    };
  });
  const rows = [...document.querySelectorAll('table tr')].map(r => [...r.cells].map(c => c.innerText.trim()));
  const calls = [...document.querySelectorAll('span.pos, span.unc')].map(s => ({
    cls: s.className, text: s.innerText, color: getComputedStyle(s).color }));
  const zooms = [...document.querySelectorAll('.zoom')];
  const hidden = zooms.filter(z => getComputedStyle(z).display === 'none').length;
  let zoom = null;
  const first = document.querySelector('.tile a[href^="#z"]');
  if (first) {
    first.click();
    await new Promise(r => setTimeout(r, 200));
    const z = document.getElementById(first.getAttribute('href').slice(1));
    const zi = z ? [...z.querySelectorAll('img')] : [];
    zoom = {
      id: z ? z.id : null, display: z ? getComputedStyle(z).display : null,
      images: zi.length, loaded: zi.filter(loaded).length,
      shown: zi.map(i => { const b = i.getBoundingClientRect(); return [b.width, b.height]; }),
      natural: zi.map(i => [i.naturalWidth, i.naturalHeight]),
      captions: z ? [...z.querySelectorAll('figcaption')].map(f => f.innerText) : [],
      text: z ? z.innerText : '',
    };
  }
  return {
    title: document.title, images: imgs.length, broken: imgs.filter(i => !loaded(i)).length,
    tiles, rows, calls, zooms: zooms.length, zooms_hidden_before_click: hidden, zoom,
    scripts: document.scripts.length, text: document.body.innerText,
  };
})()
"""


class Pipe:
    """The DevTools protocol over --remote-debugging-pipe: JSON messages ended by a NUL byte."""

    def __init__(self, chromium, profile, size):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def fds():
            # the browser reads fd 3 and writes fd 4 (copied high first: a pipe may be 3 or 4)
            r, w = os.dup(to_r), os.dup(from_w)
            os.dup2(r, 3)
            os.dup2(w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--disable-extensions", "--disable-sync", "--mute-audio",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", f"--window-size={size}",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=None,
            close_fds=False, preexec_fn=fds)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("chromium did not answer in time")
            r, _, _ = select.select([self.from_r], [], [], left)
            if r:
                chunk = os.read(self.from_r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=60):
        want = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            m = self.read(deadline)
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})

    def wait_event(self, name, session, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            m = self.read(deadline)
            if m.get("method") == name and m.get("sessionId") == session:
                return m

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page")
    ap.add_argument("--screenshot", help="save a PNG of the page after the click")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--size", default="1280,1000")
    a = ap.parse_args()
    if not a.chromium:
        sys.exit("no chromium found (apt-get install chromium)")
    if not os.path.isfile(a.page):
        sys.exit(f"no such page: {a.page}")
    url = "file://" + os.path.abspath(a.page)
    with tempfile.TemporaryDirectory() as profile:
        b = Pipe(a.chromium, profile, a.size)
        try:
            target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            b.call("Page.enable", session=s)
            b.call("Page.navigate", {"url": url}, session=s)
            b.wait_event("Page.loadEventFired", s, timeout=120)
            r = b.call("Runtime.evaluate", {"expression": FACTS, "returnByValue": True,
                                            "awaitPromise": True}, session=s, timeout=120)
            if "exceptionDetails" in r:
                sys.exit(f"the page's checks failed: {r['exceptionDetails']}")
            facts = r["result"]["value"]
            if a.screenshot:
                shot = b.call("Page.captureScreenshot", {"format": "png"}, session=s)
                with open(a.screenshot, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
        finally:
            b.close()
    json.dump(facts, sys.stdout)
    print()


if __name__ == "__main__":
    main()
