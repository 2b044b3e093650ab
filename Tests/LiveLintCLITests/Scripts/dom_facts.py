#!/usr/bin/env python3
"""Reads a DOM serialised by `chromium --dump-dom` (standard input) with Python's own HTML parser
and prints what the HTML report tests check, as JSON: the cards (`.pair` data-still/data-movie),
the findings (`.finding` data-rule/data-finding, and the card each sits in), every <img> src,
every event-handler attribute (on*), every <script> element, the title, the status line's
counts and the page's CSP-violation counter."""
import json
import sys
from html.parser import HTMLParser


class Facts(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cards, self.findings, self.images, self.handlers, self.scripts = [], [], [], [], []
        self.title, self.in_title, self.status, self.body = "", False, {}, {}
        self.stack = []  # (tag, card index or None)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        card = self.stack[-1][1] if self.stack else None
        if "pair" in classes and tag == "article":
            self.cards.append({"still": a.get("data-still"), "movie": a.get("data-movie"), "classes": classes})
            card = len(self.cards) - 1
        if "finding" in classes:
            self.findings.append({"rule": a.get("data-rule"), "index": a.get("data-finding"), "card": card})
        if tag == "img":
            self.images.append(a.get("src"))
        for name, _ in attrs:
            if name.lower().startswith("on"):
                self.handlers.append(f"{tag}[{name}]")
        if tag == "script":
            self.scripts.append(a.get("type") or "text/javascript")
        if tag == "title":
            self.in_title = True
        if a.get("id") == "status":
            self.status = {"matching": a.get("data-matching"), "shown": a.get("data-shown")}
        if tag == "body":
            self.body = {"csp_violations": a.get("data-csp-violations"), "rendered": a.get("data-rendered"),
                         "first_render_ms": a.get("data-first-render-ms")}
        if tag not in ("meta", "link", "br", "input", "img", "hr", "source", "col", "wbr", "area", "base", "embed"):
            self.stack.append((tag, card))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.in_title:
            self.title += data


p = Facts()
p.feed(sys.stdin.read())
print(json.dumps({"cards": p.cards, "findings": p.findings, "images": p.images, "handlers": p.handlers,
                  "scripts": p.scripts, "title": p.title, "status": p.status, "body": p.body}))
